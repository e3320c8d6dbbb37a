import { CARD_COUNT_SQL } from '../../badges/badge-catalog.service';
import { sqlJsonIsoTime, sqlJsonObject, sqlJsonScalar, sqlJsonString } from '../../common/wire/sql-json-text';

/** badgeName (badge-catalog.service.ts) in SQL: the curated name, else one derived from the app or the special id. */
const BADGE_NAME = `CASE WHEN b.name <> '' THEN b.name
  WHEN b.app_id IS NULL THEN 'Community badge #' || b.platform_badge_id
  ELSE COALESCE(NULLIF(a.name, ''), 'App ' || b.app_id) || CASE WHEN b.is_foil THEN ' Foil Badge' ELSE ' Badge' END END`;

/**
 * `V1AppBadge` as JSON text written by PostgreSQL, exactly as JSON.stringify writes `toAppBadge` (same keys in the
 * same order, same values), for a listing sent as it is (RawJson). A badge page of 50 spent more of the API's time
 * having the driver parse ~25 columns per badge, mapping them and serializing the result than on anything else.
 *
 * Over the aliases of BadgeCatalogService's statements: `b` badges, `a` apps, `s` badge_holder_stats, `p`
 * app_market_prices, `k` app_card_counts; `accountInfo` (if given) is SQL of the holder's part, see HOLDING_INFO_TEXT.
 * e2e tests compare these answers with the ones built by toAppBadge for the same badges.
 */
export function appBadgeText(accountInfo?: string): string {
  const holders = 'COALESCE(s.holders, 0)';
  return sqlJsonObject([
    ['badgeId', `'"bdg_' || b.id || '"'`],
    ['steamId', sqlJsonScalar('b.platform_badge_id')],
    ['name', sqlJsonString(BADGE_NAME)],
    ['appId', sqlJsonScalar('COALESCE(b.app_id, 0)')],
    ['appName', sqlJsonString(`COALESCE(a.name, '')`)],
    ['appImage', sqlJsonString(`COALESCE(a.icon, '')`)],
    ['highestLevel', sqlJsonScalar('COALESCE(s.highest_level, 0)')],
    ['scarcity', sqlJsonScalar('b.scarcity')],
    ['trackedHolders', sqlJsonScalar(holders)],
    ['firstCompletion', sqlJsonIsoTime(`CASE WHEN ${holders} > 0 THEN s.first_completion END`)],
    ['lastCompletion', sqlJsonIsoTime(`CASE WHEN ${holders} > 0 THEN s.last_completion END`)],
    ['isEvent', sqlJsonScalar('b.is_event')],
    ['isFoil', sqlJsonScalar('b.is_foil')],
    ['isSale', sqlJsonScalar('b.is_sale')],
    ['price', sqlJsonScalar('COALESCE(p.set_price, 0)')],
    ['badgeImage', sqlJsonString('b.image')],
    ['baseLevel', sqlJsonScalar('b.base_level')],
    ['baseXp', sqlJsonScalar('b.base_xp')],
    ['cardCount', sqlJsonScalar(CARD_COUNT_SQL)],
    ['isNmc', sqlJsonScalar('COALESCE(p.unmarketable_cards > 0, false)')],
    ['noListing', sqlJsonScalar('COALESCE(p.unlisted_cards > 0, false)')],
    ...(accountInfo === undefined ? [] : ([['accountInfo', accountInfo]] as const)),
  ]);
}

/** The `accountInfo` of a holding aliased `ab` (an `account_badges` row): `AccountBadgeInfo` as toAppBadge is given it. */
export const HOLDING_INFO_TEXT = sqlJsonObject([
  ['completionTime', sqlJsonIsoTime('ab.completion_time')],
  ['level', sqlJsonScalar('ab.level')],
  ['xp', sqlJsonScalar('ab.xp')],
]);
