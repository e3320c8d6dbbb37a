import { DataSource } from 'typeorm';
import { BadgeCosts, toBadgeCosts } from '../../src/pricing/badge-costs';

/**
 * What an account's cost fields should be, by the plainest statement: each badge level held at the set price of its
 * app and kind (normal or foil); badges without a price add nothing. The reference the profile's are compared with.
 */
export async function referenceBadgeCosts(dataSource: DataSource, accountId: number): Promise<BadgeCosts> {
  const [sums]: { normal: string; foil: string }[] = await dataSource.query(
    `SELECT COALESCE(sum(ab.level::bigint * p.set_price) FILTER (WHERE NOT b.is_foil), 0)::text AS normal,
            COALESCE(sum(ab.level::bigint * p.set_price) FILTER (WHERE b.is_foil), 0)::text AS foil
       FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
       JOIN app_market_prices p ON p.app_id = b.app_id AND p.badge_type = (CASE WHEN b.is_foil THEN 'foil' ELSE 'normal' END)
      WHERE ab.account_id = $1`,
    [accountId],
  );
  return toBadgeCosts(Number(sums.normal), Number(sums.foil));
}
