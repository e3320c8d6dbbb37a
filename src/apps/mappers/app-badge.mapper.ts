import { BadgeStatistics, commonBadgeFields } from '../../badges/badge-catalog.service';
import { AccountBadgeInfo, V1AppBadge } from '../dto/app-badges.dto';

/**
 * `V1AppBadge` from a badge and its holder statistics; `accountInfo` when the subject account holds it. The fields are
 * assigned onto the common record, not spread with it into a new literal: V8 builds `{ ...record, more }` on a slow
 * path (microseconds per badge, and a page has 50; docs/performance-history.md).
 */
export function toAppBadge(badge: BadgeStatistics, accountInfo?: AccountBadgeInfo | null): V1AppBadge {
  const wire: V1AppBadge = Object.assign(commonBadgeFields(badge), {
    badgeImage: badge.image,
    baseLevel: badge.baseLevel,
    baseXp: badge.baseXp,
    cardCount: badge.cardCount,
    // From the market prices of the badge's card set (src/pricing); false until the set was first priced.
    isNmc: badge.isNmc,
    noListing: badge.noListing,
  });
  if (accountInfo !== undefined) wire.accountInfo = accountInfo;
  return wire;
}
