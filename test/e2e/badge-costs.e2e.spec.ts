import { PROFILE_TEXT_SQL } from '../../src/accounts/mappers/profile-text';
import { BadgePriceBook } from '../../src/pricing/badge-price-book';
import { referenceBadgeCosts } from '../support/badge-costs-reference';
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
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/**
 * The profile's cost fields (`normalBadgeCost`, `foilBadgeCost`, `appCost`) with a large priced catalogue: the
 * profile's statement reads the account's badges once and looks up no badge and no price (a join whose size the
 * planner misjudged probed the account's badges once per priced set, ~0.8 ms per profile; per-badge look-ups were half
 * of the statement's time); the process's price book prices them, as the plainest join would, and a price change
 * shows within the book's lifetime.
 */
describe('badge costs from the price book', () => {
  let ctx: TestContext;
  let key: string;
  const accountId = 1;

  beforeAll(async () => {
    ctx = await startTestApp('badgecosts');
    key = await ctx.apiKey(accountId);
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

  it('should read the account’s badges once and no badge or price in the profile’s statement', async () => {
    // As a request runs it: a prepared statement (database/preparing-client.ts), whose plan PostgreSQL makes for the
    // parameter (the first executions) and then generic; both kinds are checked.
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      const runner = ctx.dataSource.createQueryRunner();
      try {
        await runner.query(`SET plan_cache_mode = ${mode}`);
        await runner.query(`PREPARE profile_text (int[], text[]) AS ${PROFILE_TEXT_SQL}`);
        const [
          {
            'QUERY PLAN': [plan],
          },
        ]: { 'QUERY PLAN': [{ Plan: PlanNode }] }[] = await runner.query(
          `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE profile_text ('{${accountId}}', '{""}')`,
        );
        const loops = (table: string) =>
          nodesOf(plan.Plan)
            .filter((node) => node['Relation Name'] === table)
            .map((node) => node['Actual Loops']);
        expect({ mode, accountBadges: loops('account_badges'), badges: loops('badges'), prices: loops('app_market_prices') }).toEqual({
          mode,
          accountBadges: [1],
          badges: [],
          prices: [],
        });
      } finally {
        await runner.query('DEALLOCATE ALL').catch(() => undefined);
        await runner.query('RESET plan_cache_mode').catch(() => undefined);
        await runner.release();
      }
    }
  });

  it('should answer the cost fields the plainest join gives', async () => {
    const res = await ctx.http().post('/v1/account.getInfo').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(200);
    const expected = await referenceBadgeCosts(ctx.dataSource, accountId);
    expect(expected.normalBadgeCost).toBeGreaterThan(0);
    expect(expected.foilBadgeCost).toBeGreaterThan(0);
    expect({ appCost: res.body.appCost, foilBadgeCost: res.body.foilBadgeCost, normalBadgeCost: res.body.normalBadgeCost }).toEqual(
      expected,
    );
  });

  it('should price with a kept book for at most its lifetime', async () => {
    const ttlMs = 400;
    const book = new BadgePriceBook(ctx.dataSource, { ...ctx.config, sharedAnswerTtlMs: ttlMs });
    const held: { badge_id: number; level: number }[] = await ctx.dataSource.query(
      'SELECT badge_id, level FROM account_badges WHERE account_id = $1 ORDER BY badge_id',
      [accountId],
    );
    const costs = () =>
      book.costsOf(
        held.map((row) => row.badge_id),
        held.map((row) => row.level),
      );
    const before = await costs();
    expect(before).toEqual(await referenceBadgeCosts(ctx.dataSource, accountId));
    const loadedAt = Date.now();
    await ctx.dataSource.query(`UPDATE app_market_prices SET set_price = set_price + 1000 WHERE app_id >= $1`, [FIRST_APP]);
    try {
      const changed = await referenceBadgeCosts(ctx.dataSource, accountId);
      expect(changed).not.toEqual(before);
      // Still the kept book inside its lifetime (unless this machine was too slow to ask in time).
      const kept = await costs();
      if (Date.now() - loadedAt < ttlMs / 2) expect(kept).toEqual(before);
      // Past it, the new prices.
      await new Promise((resolve) => setTimeout(resolve, ttlMs + 50));
      expect(await costs()).toEqual(changed);
    } finally {
      await ctx.dataSource.query(`UPDATE app_market_prices SET set_price = set_price - 1000 WHERE app_id >= $1`, [FIRST_APP]);
    }
  });
});
