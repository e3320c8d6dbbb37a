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
    // From the market prices of the badge's card set (src/pricing); false until the set was first priced.
    isNmc: badge.isNmc,
    noListing: badge.noListing,
    ...(accountInfo !== undefined ? { accountInfo } : {}),
  };
}
