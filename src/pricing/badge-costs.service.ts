import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { INT32_MAX } from '../common/wire/bounds';

/** The deprecated cost fields of a profile, USD cents. */
export interface BadgeCosts {
  /** The account's app (card) badges together: normal plus foil. */
  appCost: number;
  /** Its foil badges at today's foil set prices. */
  foilBadgeCost: number;
  /** Its normal badge levels at today's set prices: each level consumed one set. */
  normalBadgeCost: number;
}

export const NO_BADGE_COSTS: BadgeCosts = { appCost: 0, foilBadgeCost: 0, normalBadgeCost: 0 };

/**
 * One index range of the account's badges (`account_badges` by account), each badge's set price looked up by primary
 * key: O(badges held), never the catalogue. Sets not priced yet add nothing (a missing price is NULL, which a sum
 * skips).
 *
 * The price is a scalar subquery, not a join, on purpose: as a join on `badge_type = CASE …` the planner could not
 * estimate the join's size (8 rows for ~800 priced sets), started from the priced catalogue (badges × prices) and
 * probed the account's badges once per priced set, ~0.8 ms per profile once every app had a price (0.1 ms this way;
 * docs/performance.md, "Badge costs by the account's badges"). A scalar subquery is run per row of the account's own
 * badges and never turned into a join.
 */
export const BADGE_COSTS_SQL = `
  SELECT COALESCE(sum(c.cost) FILTER (WHERE NOT c.is_foil), 0)::bigint AS normal,
         COALESCE(sum(c.cost) FILTER (WHERE c.is_foil), 0)::bigint AS foil
    FROM (SELECT b.is_foil,
                 ab.level::bigint * (SELECT p.set_price FROM app_market_prices p
                                      WHERE p.app_id = b.app_id AND p.badge_type = CASE WHEN b.is_foil THEN 'foil' ELSE 'normal' END) AS cost
            FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
           WHERE ab.account_id = $1) c`;

/** The costs from a row of BADGE_COSTS_SQL (sums of cents, as PostgreSQL returns bigints: text). */
export function toBadgeCosts(row: { normal: string | number; foil: string | number } | undefined): BadgeCosts {
  // The wire fields are int32: a collection worth more than $21M reads as the largest value.
  const clamp = (cents: number) => Math.min(INT32_MAX, cents);
  const normal = Number(row?.normal ?? 0);
  const foil = Number(row?.foil ?? 0);
  return { appCost: clamp(normal + foil), foilBadgeCost: clamp(foil), normalBadgeCost: clamp(normal) };
}

/** What an account's badges cost to craft at the market prices the pricing job keeps (profile cost fields). */
@Injectable()
export class BadgeCostsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async forAccount(accountId: number): Promise<BadgeCosts> {
    const [row]: { normal: string; foil: string }[] = await this.dataSource.query(BADGE_COSTS_SQL, [accountId]);
    return toBadgeCosts(row);
  }
}
