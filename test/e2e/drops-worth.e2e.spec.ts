/**
 * account.getDropsWorth against the real stack: an account refreshed from the simulator, card sets and normal/foil
 * quotes written in SQL, and every game's drops and worth compared with a recomputation: the drops the simulator's
 * badge pages show (universe.cardDropsRemaining) × the SQL mean of the set's normal quotes in `card_market_prices`.
 * Then the cache (no second page read), the caller's platform budget (charged, 429 once spent) and the refusals.
 */
import Redis from 'ioredis';
import { PlatformSpending } from '../../src/platform/spending/platform-spending';
import { REDIS, redisKey } from '../../src/common/redis/redis.module';
import { startPipeline, PipelineContext } from '../support/pipeline';

/** The answer recomputed in SQL from the page values ($2 apps, $3 drops) and the quotes. */
const RECOMPUTED = `
  WITH games AS (
    SELECT aa.app_id, aa.playtime, cardinality(k.card_names) AS set_size FROM account_apps aa
      JOIN app_card_counts k ON k.app_id = aa.app_id AND cardinality(k.card_names) > 0
     WHERE aa.account_id = $1 ORDER BY aa.playtime DESC, aa.app_id LIMIT 25),
  drops AS (SELECT * FROM unnest($2::int[], $3::int[]) d(app_id, drops))
  SELECT g.app_id AS "appId", g.playtime, g.set_size AS "setSize", d.drops AS "dropsRemaining",
         round(avg(p.lowest_price))::int AS "meanCardPrice", count(p.lowest_price)::int AS "pricedCards",
         round(d.drops * avg(p.lowest_price))::int AS worth,
         (extract(epoch FROM min(p.updated_at) FILTER (WHERE p.lowest_price IS NOT NULL)) * 1000)::bigint AS "pricesUpdatedAt"
    FROM games g JOIN drops d ON d.app_id = g.app_id
    LEFT JOIN card_market_prices p ON p.app_id = g.app_id AND p.badge_type = 'normal'
   GROUP BY g.app_id, g.playtime, g.set_size, d.drops
   ORDER BY g.playtime DESC, g.app_id`;

interface Game {
  appId: number;
  playtime: number;
  setSize: number;
  dropsRemaining: number | null;
  dropsReadAt: number | null;
  meanCardPrice: number | null;
  pricedCards: number;
  worth: number | null;
  pricesUpdatedAt: number | null;
}

describe('account.getDropsWorth', () => {
  let ctx: PipelineContext;
  let key: string;
  let accountId: number;
  /** The apps answered by the first ask. */
  let answered: number[] = [];
  /** The caller: the API key's account, whose platform budget pays for the page reads. */
  const caller = 1;
  const auth = () => ({ Authorization: `Bearer ${key}` });
  const ask = (body: Record<string, unknown>, status = 200) =>
    ctx.http().post('/v1/account.getDropsWorth').set(auth()).send(body).expect(status);
  const pagesRead = (appIds: number[]) => {
    const steamId = ctx.simulator.universe.steamIdOf(accountId);
    return appIds.reduce(
      (sum, appId) =>
        sum +
        ctx.simulator.requestsFor(`/profiles/${steamId}/gamecards/${appId}/`) +
        ctx.simulator.requestsFor(`/profiles/${steamId}/gamecards/${appId}`),
      0,
    );
  };
  const clearCache = async () => {
    const redis = ctx.app.get<Redis>(REDIS);
    const keys = await redis.keys(redisKey(ctx.config, 'drops', '*'));
    if (keys.length) await redis.del(...keys);
  };

  beforeAll(async () => {
    // Pages as fast as the simulator serves them: the pace is the pricing spec's business.
    ctx = await startPipeline('drops', { env: { PLATFORM_MARKET_CALLS_PER_MINUTE: '600000' } });
    key = await ctx.apiKey(caller);
    await ctx.startWorker();
    const universe = ctx.simulator.universe;
    const tick = universe.tickAt(ctx.clock.now);
    // A public account with at least four games played long enough to have drops left.
    for (let id = 2; id < 300 && !accountId; id++)
      if (
        !universe.isPrivate(id) &&
        universe.ownedGames(id, tick).filter((g) => (universe.cardDropsRemaining(id, g.appId, tick) ?? 0) > 0).length >= 4
      )
        accountId = id;
    expect(accountId).toBeDefined();
    await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } }).expect(204);
    await ctx.waitForCompletion(accountId, key);
    await ctx.stopWorker();

    // Sets: the simulator's own for every game of the library but one (a game without a known set is not asked about).
    const library: { app_id: number }[] = await ctx.dataSource.query(
      'SELECT app_id FROM account_apps WHERE account_id = $1 ORDER BY playtime DESC, app_id',
      [accountId],
    );
    expect(library.length).toBeGreaterThanOrEqual(4);
    await ctx.dataSource.query('UPDATE app_card_counts SET card_names = NULL, cards = 0');
    const withSets = library.slice(0, -1).map((row) => row.app_id);
    for (const appId of withSets) {
      const names = universe.app(appId)!.cards;
      await ctx.dataSource.query(
        `INSERT INTO app_card_counts (app_id, cards, card_names, cards_checked_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (app_id) DO UPDATE SET cards = EXCLUDED.cards, card_names = EXCLUDED.card_names`,
        [appId, names.length, names],
      );
    }
    // Quotes: normal and foil, each card its own price and age; one set with one card unlisted, one never listed at all.
    await ctx.dataSource.query('DELETE FROM card_market_prices');
    let n = 0;
    for (const [i, appId] of withSets.entries())
      for (const name of universe.app(appId)!.cards)
        for (const type of ['normal', 'foil'] as const) {
          n++;
          const unlisted = type === 'normal' && ((i === 1 && name === universe.app(appId)!.cards[0]) || i === 2);
          await ctx.dataSource.query(
            `INSERT INTO card_market_prices (app_id, badge_type, market_hash_name, lowest_price, buy_price, volume, updated_at)
             VALUES ($1, $2, $3, $4, 2, 3, date_trunc('milliseconds', now()) - make_interval(mins => $5))`,
            [appId, type, type === 'foil' ? `${name} (Foil)` : name, unlisted ? null : 3 + ((n * 37) % 200), n % 50],
          );
        }
  }, 180_000);

  afterAll(async () => {
    await ctx?.close();
  });

  it('should answer each game’s drops from its badge page and their worth from the mean normal quote', async () => {
    const spending = ctx.app.get(PlatformSpending);
    const before = await spending.reservedThisHour(caller);
    const res = await ask({ id: { accountId } });
    const games = res.body.games as Game[];
    const universe = ctx.simulator.universe;
    const tick = universe.tickAt(ctx.clock.now);
    const appIds = games.map((g) => g.appId);
    answered = appIds;
    const drops = appIds.map((appId) => universe.cardDropsRemaining(accountId, appId, tick));
    expect(drops.every((d) => d !== null)).toBe(true);
    const expected: Game[] = (await ctx.dataSource.query(RECOMPUTED, [accountId, appIds, drops])).map((row: Game) => ({
      ...row,
      pricesUpdatedAt: row.pricesUpdatedAt === null ? null : Number(row.pricesUpdatedAt),
    }));
    expect(games.map(({ dropsReadAt, ...rest }) => ({ ...rest, appName: undefined }))).toEqual(
      expected.map((row) => ({ ...row, appName: undefined })),
    );
    expect(games.every((g) => g.dropsReadAt !== null)).toBe(true);
    // The answer has something to show: drops with worth, an unpriced set, a partly priced one.
    expect(games.filter((g) => (g.dropsRemaining ?? 0) > 0 && (g.worth ?? 0) > 0).length).toBeGreaterThanOrEqual(2);
    expect(games.some((g) => g.pricedCards === 0 && g.worth === null)).toBe(true);
    expect(games.some((g) => g.pricedCards > 0 && g.pricedCards < g.setSize)).toBe(true);

    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int FROM account_apps aa JOIN app_card_counts k USING (app_id)
        WHERE aa.account_id = $1 AND cardinality(k.card_names) > 0`,
      [accountId],
    );
    const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
    expect(res.body.totals).toEqual({
      gamesWithCards: count,
      gamesRead: Math.min(count, 25),
      pendingGames: 0,
      dropsRemaining: known(drops).reduce((a, b) => a + b, 0),
      worth: known(expected.map((g) => g.worth)).reduce((a, b) => a + b, 0),
      unpricedGames: expected.filter((g) => (g.dropsRemaining ?? 0) > 0 && g.worth === null).length,
    });
    const ages = known(expected.map((g) => g.pricesUpdatedAt));
    expect(res.body.pricesUpdatedAt).toBe(Math.min(...ages));
    // One page per game, charged to the caller's account.
    expect(pagesRead(appIds)).toBe(games.length);
    expect((await spending.reservedThisHour(caller)) - before).toBe(games.length);

    // Asked again: the pages are not read again (6 h cache), nothing more is charged, the same answer.
    const again = await ask({ id: { accountId } });
    expect(again.body).toEqual(res.body);
    expect(pagesRead(appIds)).toBe(games.length);
    expect((await spending.reservedThisHour(caller)) - before).toBe(games.length);
  });

  it('should leave the games pending, charging nothing, while the community site’s pace is taken', async () => {
    await clearCache();
    const spending = ctx.app.get(PlatformSpending);
    const before = await spending.reservedThisHour(caller);
    const readBefore = pagesRead(answered);
    // The pricing job (or other askers) hold the pace 60 s ahead: more than one request may wait.
    const redis = ctx.app.get<Redis>(REDIS);
    const paceKey = redisKey(ctx.config, 'platform', 'market-pace');
    const [now] = await redis.time();
    await redis.set(paceKey, String(Number(now) * 1000 + 60_000), 'PX', 60_000);
    try {
      const res = await ask({ id: { accountId } });
      expect(res.body.games).toHaveLength(answered.length);
      expect((res.body.games as Game[]).every((g) => g.dropsRemaining === null && g.dropsReadAt === null && g.worth === null)).toBe(true);
      expect(res.body.totals).toMatchObject({ gamesRead: answered.length, pendingGames: answered.length, dropsRemaining: 0, worth: 0 });
      expect(res.body.dropsReadAt).toBeNull();
      expect(pagesRead(answered)).toBe(readBefore);
      expect(await spending.reservedThisHour(caller)).toBe(before);
    } finally {
      await redis.del(paceKey);
    }
  });

  it('should refuse with 429 and Retry-After once the caller’s platform budget is spent, reading nothing', async () => {
    await clearCache();
    const spending = ctx.app.get(PlatformSpending);
    const left = spending.accountHourlyLimit - (await spending.reservedThisHour(caller));
    await spending.reserve(caller, left);
    const readBefore = pagesRead(answered);
    const res = await ask({ id: { accountId } }, 429);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(pagesRead(answered)).toBe(readBefore);
  });

  it('should refuse a private profile (403), an account not refreshed (409) and an untracked one (404), with problem details', async () => {
    await ctx.dataSource.query(`UPDATE accounts SET privacy = 'private' WHERE account_id = $1`, [accountId]);
    const res = await ask({ id: { accountId } }, 403);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.detail).toContain('private');
    await ctx.dataSource.query(`UPDATE accounts SET privacy = 'public' WHERE account_id = $1`, [accountId]);
    const [{ fresh }] = await ctx.dataSource.query(
      `INSERT INTO accounts (account_id) VALUES ((SELECT max(account_id) + 1 FROM accounts)) RETURNING account_id AS fresh`,
    );
    expect((await ask({ id: { accountId: fresh } }, 409)).body.detail).toContain('queue an update');
    await ask({ id: { accountId: 2_000_000_000 } }, 404);
    await ask({ id: { accountId: -1 } }, 422);
  });
});
