/**
 * The profile's small per-account reads — roles, best ranks, images and the badges its cost fields price — as one
 * statement: each was its own query (four round trips and four pool checkouts per `account.getInfo`), now one index
 * range each inside a single round trip, which also reads the account's profile text (mappers/profile-text.ts): the
 * subqueries name the account `a` of that statement, which joins this one laterally to each of its accounts.
 * Orders are the ones the separate reads used (roles by rating, then name; images by type, the active one first, then
 * newest first). The badges come as two arrays, ids and levels in the same order (one aggregate feeds both), as text
 * (`{1,2,3}`: the driver's array parser cost more than JSON.parse of the same list), which BadgePriceBook prices: the
 * statement looks up no badge and no price (pricing/badge-price-book.ts). Both arrays come from the index on (account,
 * badge, level) alone (an index-only scan: no heap tuple per badge held; account-badge.entity.ts).
 */
export const PROFILE_EXTRAS_SQL = `
  SELECT
    (SELECT COALESCE(json_agg(json_build_object('role', r.role, 'rating', r.rating, 'extras', r.extras)
                              ORDER BY r.rating DESC, r.role ASC), '[]'::json)
       FROM account_roles r WHERE r.account_id = a.account_id) AS roles,
    (SELECT COALESCE(json_agg(json_build_object('leaderboard', b.leaderboard, 'ranks', b.ranks, 'totals', b.totals)), '[]'::json)
       FROM account_best_ranks b WHERE b.account_id = a.account_id) AS best,
    (SELECT COALESCE(json_agg(json_build_object('active', i.active, 'fileName', i.file_name, 'imageId', i.image_id, 'imageType', i.image_type)
                              ORDER BY i.image_type ASC, i.active DESC, i.created_at DESC, i.image_id ASC), '[]'::json)
       FROM account_images i WHERE i.account_id = a.account_id) AS images,
    held.badge_ids, held.badge_levels
  FROM (SELECT COALESCE(array_agg(ab.badge_id), '{}')::text AS badge_ids, COALESCE(array_agg(ab.level), '{}')::text AS badge_levels
          FROM account_badges ab WHERE ab.account_id = a.account_id) held`;
