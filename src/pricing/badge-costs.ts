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
 * One index range of the account's badges (`account_badges` by account), each badge and its set price then looked up
 * by primary key: O(badges held), never the catalogue. Sets not priced yet add nothing (a missing price is NULL, which
 * a sum skips).
 *
 * Both look-ups are written so the planner cannot turn them into joins, on purpose. As a join on
 * `badge_type = CASE …` it could not estimate the join's size (8 rows for ~800 priced sets), started from the priced
 * catalogue (badges × prices) and probed the account's badges once per priced set: ~0.8 ms per profile once every app
 * had a price. As a join to `badges` it read the whole badge table per profile (a hash join: cheap at 858 badges, and
 * growing with the catalogue). A LATERAL subquery with OFFSET 0 is run per badge held, and so is the scalar subquery
 * of its price: ~0.04 ms for an account with a dozen badges (docs/performance.md, "Badge costs by the account's
 * badges"; test/e2e/badge-costs-plan.e2e.spec.ts).
 */
export const BADGE_COSTS_SQL = `
  SELECT COALESCE(sum(c.cost) FILTER (WHERE NOT c.is_foil), 0)::bigint AS normal,
         COALESCE(sum(c.cost) FILTER (WHERE c.is_foil), 0)::bigint AS foil
    FROM account_badges ab
    CROSS JOIN LATERAL (
      SELECT b.is_foil,
             ab.level::bigint * (SELECT p.set_price FROM app_market_prices p
                                  WHERE p.app_id = b.app_id AND p.badge_type = CASE WHEN b.is_foil THEN 'foil' ELSE 'normal' END) AS cost
        FROM badges b
       WHERE b.id = ab.badge_id
      OFFSET 0) c
   WHERE ab.account_id = $1`;

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
