import { commonBadgeFields, HeldBadge } from '../../badges/badge-catalog.service';
import { V1LeaderboardBadge } from '../dto/leaderboard-badges.dto';

/** A badge as listed for badge leaderboards: its starting level and xp, and holder statistics. */
export function toLeaderboardBadge(badge: HeldBadge): V1LeaderboardBadge {
  return { ...commonBadgeFields(badge), image: badge.image, level: badge.baseLevel, xp: badge.baseXp };
}
