import { BadgeStatistics, commonBadgeFields } from '../../badges/badge-catalog.service';
import { AccountBadgeInfo, V1AppBadge } from '../dto/app-badges.dto';

/** `V1AppBadge` from a badge and its holder statistics; `accountInfo` when the subject account holds it. */
export function toAppBadge(badge: BadgeStatistics, accountInfo?: AccountBadgeInfo | null): V1AppBadge {
  return {
    ...commonBadgeFields(badge),
    badgeImage: badge.image,
    baseLevel: badge.baseLevel,
    baseXp: badge.baseXp,
    cardCount: badge.cardCount,
    // The Web API reads no listing data for cards; nothing marks a badge's cards as unmarketable or unlisted.
    isNmc: false,
    noListing: false,
    ...(accountInfo !== undefined ? { accountInfo } : {}),
  };
}
