import { BADGE_COSTS_SQL, BadgeCostsService } from '../../src/pricing/badge-costs.service';
import { startTestApp, TestContext } from '../support/test-app';

/** Apps of the priced catalogue this test makes (ids far from the simulator's). */
const FIRST_APP = 800_000;
const PRICED_APPS = 400;
const HELD = 12;
/** Other accounts holding some of them. */
const OTHERS_FROM = 100_000;
const OTHERS = 3_000;

interface PlanNode {
  'Relation Name'?: string;
  'Actual Loops': number;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/**
 * The profile's badge costs (BADGE_COSTS_SQL, inside every `account.getInfo`) are read from the account's own badges:
 * once every app of a large catalogue has a price, the statement still reads the account's badges once and looks up
 * one badge and one price per badge held: it never probes the account's badges once per priced set (a join whose size
 * the planner misjudged did, ~0.8 ms per profile with ~800 priced sets), nor reads the whole badge table.
 */
describe('badge costs by the account’s badges', () => {
  let ctx: TestContext;
  const accountId = 1;

  beforeAll(async () => {
    ctx = await startTestApp('badgecosts');
    await ctx.apiKey(accountId);
    const apps = Array.from({ length: PRICED_APPS }, (_, i) => FIRST_APP + i);
    await ctx.dataSource.query(
      `INSERT INTO badges (badge_key, app_id, platform_badge_id, is_foil)
       SELECT 'app:' || app || ':' || foil, app, 1, foil FROM unnest($1::int[]) app, unnest(array[false, true]) foil`,
      [apps],
    );
    await ctx.dataSource.query(
      `INSERT INTO app_market_prices (app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume,
                                      card_average_price, set_price, buy_order_average_price, set_buy_order_price, updated_at)
       SELECT app, t, 6, 0, 0, 10, 10 + app % 7, (10 + app % 7) * 6, 9, 54, now()
         FROM unnest($1::int[]) app, unnest(array['normal', 'foil']) t`,
      [apps],
    );
    // The account holds a few of them: normal badges at levels 1..5, every third a foil one too.
    await ctx.dataSource.query(
      `INSERT INTO account_badges (account_id, badge_id, level, xp, completion_time)
       SELECT $1, b.id, CASE WHEN b.is_foil THEN 1 ELSE 1 + (b.app_id % 5) END, 100, now()
         FROM badges b
        WHERE b.app_id >= $2 AND b.app_id < $2 + $3 AND (NOT b.is_foil OR b.app_id % 3 = 0)`,
      [accountId, FIRST_APP, HELD],
    );
    // Other accounts with ~80 badges each, so the planner estimates an account's badges as a seeded population makes it do.
    await ctx.dataSource.query(`INSERT INTO accounts (account_id) SELECT generate_series($1::int, $1 + $2 - 1) ON CONFLICT DO NOTHING`, [
      OTHERS_FROM,
      OTHERS,
    ]);
    await ctx.dataSource.query(
      `INSERT INTO account_badges (account_id, badge_id, level, xp, completion_time)
       SELECT a, b.id, 1, 100, now() FROM generate_series($1::int, $1 + $2 - 1) a
         JOIN badges b ON b.app_id >= $3 AND (b.app_id + a) % 10 = 0`,
      [OTHERS_FROM, OTHERS, FIRST_APP],
    );
    await ctx.dataSource.query('ANALYZE badges, app_market_prices, account_badges');
  });
  afterAll(() => ctx.close());

  it('should look up one price per badge held, not the account’s badges once per priced set', async () => {
    const held: { n: number }[] = await ctx.dataSource.query('SELECT count(*)::int AS n FROM account_badges WHERE account_id = $1', [
      accountId,
    ]);
    // As a request runs it: a prepared statement (database/preparing-client.ts), whose plan PostgreSQL makes for the
    // parameter (the first executions) and then generic; both kinds are checked.
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      const runner = ctx.dataSource.createQueryRunner();
      try {
        await runner.query(`SET plan_cache_mode = ${mode}`);
        await runner.query(`PREPARE badge_costs (int) AS ${BADGE_COSTS_SQL}`);
        const [
          {
            'QUERY PLAN': [plan],
          },
        ]: { 'QUERY PLAN': [{ Plan: PlanNode }] }[] = await runner.query(
          `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE badge_costs (${accountId})`,
        );
        const on = (table: string) => nodesOf(plan.Plan).filter((node) => node['Relation Name'] === table);
        expect({ mode, loops: on('account_badges').map((node) => node['Actual Loops']) }).toEqual({ mode, loops: [1] });
        const priceLookups = on('app_market_prices').reduce((sum, node) => sum + node['Actual Loops'], 0);
        expect(priceLookups).toBeLessThanOrEqual(held[0].n);
        // The badges themselves by primary key, one per badge held: never the whole badge table.
        const badgesRead = on('badges').reduce((sum, node) => sum + node['Actual Rows'] * node['Actual Loops'], 0);
        expect({ mode, badgesRead }).toEqual({ mode, badgesRead: held[0].n });
      } finally {
        await runner.query('DEALLOCATE ALL').catch(() => undefined);
        await runner.query('RESET plan_cache_mode').catch(() => undefined);
        await runner.release();
      }
    }

    // And the sums are each badge level at its set's price.
    const expected: { normal: string; foil: string }[] = await ctx.dataSource.query(
      `SELECT COALESCE(sum(ab.level * p.set_price) FILTER (WHERE NOT b.is_foil), 0)::text AS normal,
              COALESCE(sum(ab.level * p.set_price) FILTER (WHERE b.is_foil), 0)::text AS foil
         FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
         JOIN app_market_prices p ON p.app_id = b.app_id AND p.badge_type = (CASE WHEN b.is_foil THEN 'foil' ELSE 'normal' END)
        WHERE ab.account_id = $1`,
      [accountId],
    );
    const costs = await ctx.app.get(BadgeCostsService).forAccount(accountId);
    expect(costs).toEqual({
      normalBadgeCost: Number(expected[0].normal),
      foilBadgeCost: Number(expected[0].foil),
      appCost: Number(expected[0].normal) + Number(expected[0].foil),
    });
    expect(costs.normalBadgeCost).toBeGreaterThan(0);
  });
});
