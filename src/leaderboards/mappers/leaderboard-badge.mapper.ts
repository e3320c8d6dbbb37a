import { badgeName, BadgeStatistics, publicBadgeId } from '../../badges/badge-catalog.service';
import { V1LeaderboardBadge } from '../dto/leaderboard-badges.dto';

/** A badge as listed for badge leaderboards: its starting level and xp, and holder statistics. */
export function toLeaderboardBadge(badge: BadgeStatistics): V1LeaderboardBadge {
  return {
    badgeId: publicBadgeId(badge.id),
    steamId: badge.platformBadgeId,
    name: badgeName(badge),
    image: badge.image,
    appId: badge.appId ?? 0,
    appName: badge.appName,
    appImage: badge.appIcon,
    level: badge.baseLevel,
    xp: badge.baseXp,
    highestLevel: badge.highestLevel,
    scarcity: badge.scarcity,
    trackedHolders: badge.trackedHolders,
    firstCompletion: badge.firstCompletion?.toISOString() ?? null,
    lastCompletion: badge.lastCompletion?.toISOString() ?? null,
    isEvent: badge.isEvent,
    isFoil: badge.isFoil,
    isSale: badge.isSale,
    price: 0,
  };
}
