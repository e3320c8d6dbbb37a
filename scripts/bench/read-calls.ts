import { Client } from 'pg';
import { Call, ids } from './load';

/**
 * The read operations the scale benches measure (bench:scale, bench:flatness), with bodies naming what a seeded
 * population of `accounts` really has: random accounts and pairs (deterministic, so two runs ask for the same),
 * its most common city and most held normal badge (`fixtures`).
 */

/** Where the warm-up's request indexes start (the measured requests' start at 0); above any --requests. */
export const WARMUP_OFFSET = 1_000_000;

export interface Fixtures {
  city: { city_name: string; country_name: string };
  badgeAppId: number;
  /**
   * Refreshed accounts whose profile and inventory are public (a private one is a 403 for the crafting planner), drawn
   * from a repeatable sample; the first half for the measured requests, the second for the warm-up.
   */
  plannable: number[];
}

/**
 * The operations, `GET /health` (the baseline) first. The friend path asks `pairs` random pairs in turn (the issue's
 * 200 by default; more give steadier figures on a noisy host, the first 200 being the same pairs).
 */
/** `session`: a user session of account 1, for the reads only a signed-in user may make (skipped without one). */
export function readCalls(accounts: number, { city, badgeAppId, plannable }: Fixtures, pairs = 200, session?: string): Call[] {
  // The warm-up asks for other accounts than the measured requests (its indexes start at WARMUP_OFFSET), so what the
  // measured ones read is not in PostgreSQL's cache because the warm-up just read it.
  const random = ids(WARMUP_OFFSET + 50_000, accounts, 7);
  const ends = ids(2 * (WARMUP_OFFSET + 50_000), accounts, 11);
  const pick = (i: number) => random[i % random.length];
  // The measured requests cycle through `pairs` pairs, so that the row lasts as long as the others (`--requests`,
  // `--seconds`): rounds of a side-by-side cut from only 200 requests (25 a round) measured a round's start, not the
  // search, and moved the ratio by ±20 % between runs of the same builds. The warm-up asks other pairs.
  const pair = (i: number) => {
    const at = (2 * (i >= WARMUP_OFFSET ? i : i % pairs)) % ends.length;
    return { from: { id: { accountId: ends[at] } }, to: { id: { accountId: ends[at + 1] } } };
  };
  const half = Math.max(1, Math.floor(plannable.length / 2));
  const planned = (i: number) => plannable[i >= WARMUP_OFFSET ? (half + (i % half)) % plannable.length : i % half];
  const board = (extra: Record<string, unknown>) => (): unknown => ({ leaderboard: 'xp', start: 1, end: 10, ...extra });
  const post = (name: string, path: string, body?: (i: number) => unknown, extra: Partial<Call> = {}): Call => ({
    name,
    method: 'POST',
    path,
    body,
    ...extra,
  });
  return [
    { name: 'GET /health (baseline)', method: 'GET', path: '/health', throughputBar: true },
    post('stats.getStats', '/v1/stats.getStats', undefined, { throughputBar: true }),
    post('leaderboard.getChanges (xp, 7d)', '/v1/leaderboard.getChanges', () => ({
      leaderboard: 'xp',
      window: '7d',
      metric: 'score',
      direction: 'improvements',
    })),
    // Windows past 24 h keep no live state: a snapshot computed from PostgreSQL (the warm-up computes it; read steadily,
    // it is computed again in the background once a minute, which a run includes when it lasts that long).
    post('leaderboard.getChanges (xp, 30d)', '/v1/leaderboard.getChanges', () => ({
      leaderboard: 'xp',
      window: '30d',
      metric: 'score',
      direction: 'improvements',
    })),
    post('leaderboard.getBucketLeaders (xp)', '/v1/leaderboard.getBucketLeaders', () => ({ leaderboard: 'xp' })),
    post('account.listBadges', '/v1/account.listBadges', (i) => ({ id: { accountId: pick(i) } })),
    // The crafting planner (src/crafting): one account's apps, cards and their card quotes, sorted by cost per xp.
    post('account.getCraftingPlan', '/v1/account.getCraftingPlan', (i) => ({ id: { accountId: planned(i) }, limit: 20 })),
    post('getAccountLeaderboard xp top 10', '/v1/leaderboard.getAccountLeaderboard', board({})),
    post(
      `getAccountLeaderboard xp, ${city.country_name}`,
      '/v1/leaderboard.getAccountLeaderboard',
      board({ location: [{ country: city.country_name }] }),
    ),
    post(
      `getAccountLeaderboard xp, ${city.city_name}`,
      '/v1/leaderboard.getAccountLeaderboard',
      board({ location: [{ country: city.country_name, city: city.city_name }] }),
    ),
    post(`getAccountLeaderboard badge ${badgeAppId}`, '/v1/leaderboard.getAccountLeaderboard', () => ({
      leaderboard: 'badge_highest_level',
      start: 1,
      end: 10,
      badge: { id: badgeAppId, isFoil: false },
    })),
    post('getAccountLeaderboard xp, rank 50000', '/v1/leaderboard.getAccountLeaderboard', () => ({
      leaderboard: 'xp',
      goToLeaderboardRank: 50_000,
    })),
    post('leaderboard.previewAccountRank (xp)', '/v1/leaderboard.previewAccountRank', (i) => ({
      id: { accountId: pick(i) },
      leaderboard: 'xp',
    })),
    post('leaderboard.listBadges', '/v1/leaderboard.listBadges'),
    // The catalogue's cheapest badges (card_market_prices / app_market_prices, seeded or `npm run seed -- --prices-only`):
    // in turn both sides, one side by cost per xp, and a price range, each a first page of 20.
    post(
      'badge.listCheapest',
      '/v1/badge.listCheapest',
      (i) => [{}, { badgeType: 'foil', sort: 'costPerXp' }, { badgeType: 'normal', minSetCost: 100, maxSetCost: 1000 }][i % 3],
    ),
    post('account.getTrending (7d)', '/v1/account.getTrending', () => ({ window: '7d' })),
    post('activity.listGlobalFeed', '/v1/activity.listGlobalFeed', () => ({})),
    post('item.findOwners (gems)', '/v1/item.findOwners', () => ({ itemIds: [667924416] })),
    // Population statistics (src/analytics) on the heaviest metric (xp: every account has some), globally and in the
    // most populated country. Lorenz curves and bivariate tables are computed on the first read (the warm-up's) and
    // again at most every 10–15 s while the boards change; the others are look-ups on every read.
    ...[{ scope: 'global' }, { scope: 'country', scope_value: city.country_name }].flatMap((where) => {
      const label = where.scope_value ?? 'global';
      const analytics = (operation: string, body: Record<string, unknown>) =>
        post(`analytics.${operation} (xp, ${label})`, `/v1/analytics.${operation}`, () => ({ domain: 'accounts', ...where, ...body }));
      return [
        analytics('getDistribution', { metric: 'xp' }),
        analytics('getInequality', { metric: 'xp' }),
        analytics('getBivariate', { x: 'xp', y: 'playtime', agg: 'median' }),
        analytics('getTrend', { metric: 'xp', window: '90d' }),
      ];
    }),
    // The catalogue domains (src/analytics/catalogue-domains): their heaviest reads, the Lorenz curve and the bivariate
    // table over every badge definition (the larger catalogue), from values reloaded at most every 10 s per process.
    post('analytics.getInequality (badges: holders)', '/v1/analytics.getInequality', () => ({
      domain: 'badges',
      metric: 'holders',
      scope: 'global',
    })),
    post('analytics.getBivariate (badges: scarcity × holders, median)', '/v1/analytics.getBivariate', () => ({
      domain: 'badges',
      x: 'scarcity',
      y: 'holders',
      agg: 'median',
      scope: 'global',
    })),
    post('analytics.getDistribution (apps: owners)', '/v1/analytics.getDistribution', () => ({
      domain: 'apps',
      metric: 'owners',
      scope: 'global',
    })),
    post('analytics.getMetricByScope (xp, country, median)', '/v1/analytics.getMetricByScope', () => ({
      domain: 'accounts',
      metric: 'xp',
      dimension: 'country',
      agg: 'median',
    })),
    post('analytics.listMetrics', '/v1/analytics.listMetrics', () => ({})),
    ...(session
      ? [
          post(
            'analytics.getMyPercentiles (account 1, global)',
            '/v1/analytics.getMyPercentiles',
            () => ({ domain: 'accounts', scope: 'global' }),
            {
              token: session,
            },
          ),
        ]
      : []),
    post('account.getInfo', '/v1/account.getInfo', (i) => ({ id: { accountId: pick(i) } }), { throughputBar: true }),
    post(`account.findFriendPath (${pairs} pairs)`, '/v1/account.findFriendPath', pair),
    // The same pairs one at a time: a request's own latency, which 16 in flight on 2 cores hide behind queueing
    // (at 16 in flight even /health waits ~16 service times). Its ratio is against the concurrent /health.
    { name: 'GET /health (one at a time)', method: 'GET', path: '/health', concurrency: 1 },
    post(`account.findFriendPath (${pairs} pairs, one at a time)`, '/v1/account.findFriendPath', pair, { concurrency: 1 }),
  ];
}

/** Request bodies that name things the seeded population really has (a city, a popular badge). */
export async function fixtures(databaseUrl: string): Promise<Fixtures> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const [city] = (
    await db.query(
      `SELECT city_name, country_name FROM accounts TABLESAMPLE SYSTEM (5) REPEATABLE (1) WHERE city_name IS NOT NULL GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`,
    )
  ).rows;
  const [badge] = (
    await db.query(`SELECT b.app_id FROM account_badges x TABLESAMPLE SYSTEM (2) REPEATABLE (1) JOIN badges b ON b.id = x.badge_id
                     WHERE b.app_id IS NOT NULL AND NOT b.is_foil GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`)
  ).rows;
  const plannable = (
    await db.query(`SELECT account_id FROM accounts TABLESAMPLE SYSTEM (1) REPEATABLE (3)
                     WHERE privacy = 'public' AND inventory_privacy = 'public' AND updated_at IS NOT NULL LIMIT 20000`)
  ).rows.map((row: { account_id: number }) => row.account_id);
  await db.end();
  return {
    city: city as { city_name: string; country_name: string },
    badgeAppId: (badge as { app_id: number }).app_id,
    plannable,
  };
}
