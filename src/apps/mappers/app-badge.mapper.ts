import { badgeName, BadgeStatistics, publicBadgeId } from '../../badges/badge-catalog.service';
import { AccountBadgeInfo, V1AppBadge } from '../dto/app-badges.dto';

/** `V1AppBadge` from a badge and its holder statistics; `accountInfo` when the subject account holds it. */
export function toAppBadge(badge: BadgeStatistics, accountInfo?: AccountBadgeInfo | null): V1AppBadge {
  return {
    badgeId: publicBadgeId(badge.id),
    steamId: badge.platformBadgeId,
    name: badgeName(badge),
    badgeImage: badge.image,
    appId: badge.appId ?? 0,
    appName: badge.appName,
    appImage: badge.appIcon,
    baseLevel: badge.baseLevel,
    baseXp: badge.baseXp,
    cardCount: badge.cardCount,
    highestLevel: badge.highestLevel,
    scarcity: badge.scarcity,
    trackedHolders: badge.trackedHolders,
    firstCompletion: badge.firstCompletion?.toISOString() ?? null,
    lastCompletion: badge.lastCompletion?.toISOString() ?? null,
    isEvent: badge.isEvent,
    isFoil: badge.isFoil,
    isSale: badge.isSale,
    // The Web API reads no listing data for cards; nothing marks a badge's cards as unmarketable or unlisted.
    isNmc: false,
    noListing: false,
    price: 0,
    ...(accountInfo !== undefined ? { accountInfo } : {}),
  };
}
