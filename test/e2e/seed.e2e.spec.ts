import { seedPopulation, SeedReport } from '../../src/seed/seed-population';
import { startPipeline, PipelineContext } from '../support/pipeline';

/**
 * A seeded population must be exactly what the update worker would have stored: a real update of a seeded
 * account, against a simulator of the same seed with its clock set to the account's last seeded run, changes
 * nothing. A control update at a later simulated time shows that the comparison does see changes.
 */
describe('seed: a synthetic population', () => {
  let ctx: PipelineContext;
  let key: string;
  let report: SeedReport;
  const ACCOUNTS = 300;

  beforeAll(async () => {
    // startPipeline's simulator: seed 7, 300 accounts, a manual clock.
    ctx = await startPipeline('seed', { accounts: ACCOUNTS });
    // Two generating threads, so the worker-thread path (as at scale) is the one under test.
    report = await seedPopulation(ctx.config, { accounts: ACCOUNTS, seed: 7, threads: 2 });
    key = await ctx.apiKey(1);
    await ctx.startWorker();
  }, 120_000);
  afterAll(() => ctx.close());

  const q = <T>(sql: string, params: unknown[] = []) => ctx.dataSource.query(sql, params) as Promise<T[]>;

  /** Everything an update writes for one account, minus what records the update itself (times, count). */
  async function stored(accountId: number) {
    const [account] = await q<Record<string, unknown>>(`SELECT * FROM accounts WHERE account_id = $1`, [accountId]);
    for (const column of ['updated_at', 'next_allowed_time', 'update_count', 'last_queue_status', 'last_ban_date']) delete account[column];
    return {
      account,
      badges: await q(
        `SELECT b.badge_key, x.level, x.xp, x.completion_time FROM account_badges x JOIN badges b ON b.id = x.badge_id
          WHERE x.account_id = $1 ORDER BY b.badge_key`,
        [accountId],
      ),
      apps: await q('SELECT app_id, playtime, playtime2_weeks, last_played FROM account_apps WHERE account_id = $1 ORDER BY app_id', [
        accountId,
      ]),
      friends: await q('SELECT friend_account_id, friend_since FROM account_friends WHERE account_id = $1 ORDER BY 1', [accountId]),
      groups: await q('SELECT group_id FROM account_groups WHERE account_id = $1 ORDER BY 1', [accountId]),
      // The account's groups as their group refresh stores them (the read's times left out).
      group_rows: await q(
        `SELECT gid, name, vanity, tag, avatar, privacy, member_count, owner_steam_id, owner_account_id FROM groups
          WHERE gid IN (SELECT group_id::bigint FROM account_groups WHERE account_id = $1) ORDER BY gid`,
        [accountId],
      ),
      inventory: await q(
        'SELECT class_id, app_id, kind, name, market_hash_name, amount, asset_id FROM inventory_items WHERE account_id = $1 ORDER BY class_id',
        [accountId],
      ),
      apps_catalogue: await q(
        `SELECT a.app_id, a.name, a.icon FROM apps a WHERE a.app_id IN (SELECT app_id FROM account_apps WHERE account_id = $1) ORDER BY 1`,
        [accountId],
      ),
    };
  }

  /** Queues a real update of the account with the simulator's clock at `clockMs` and waits for the worker. */
  async function update(accountId: number, clockMs: number): Promise<void> {
    const [{ update_count: before }] = await q<{ update_count: number }>('SELECT update_count FROM accounts WHERE account_id = $1', [
      accountId,
    ]);
    ctx.clock.now = clockMs;
    await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [row] = await q<{ update_count: number; last_queue_status: string }>(
        'SELECT update_count, last_queue_status FROM accounts WHERE account_id = $1',
        [accountId],
      );
      if (row.update_count === before + 1 && row.last_queue_status === 'completed') return;
      if (Date.now() > deadline) throw new Error(`account ${accountId} was not updated: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Makes the account's groups due for a refresh, so that its update reads them again through the worker's group
   * refresh; returns a function that waits for those reads.
   */
  async function staleGroups(accountId: number): Promise<() => Promise<void>> {
    const gids = (await q<{ gid: string }>('SELECT group_id AS gid FROM account_groups WHERE account_id = $1', [accountId])).map((row) =>
      Number(row.gid),
    );
    await q(`UPDATE groups SET refreshed_at = now() - interval '30 days' WHERE gid = ANY($1::bigint[])`, [gids]);
    return async () => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const [{ stale }] = await q<{ stale: number }>(
          `SELECT count(*)::int AS stale FROM groups WHERE gid = ANY($1::bigint[]) AND refreshed_at < now() - interval '1 day'`,
          [gids],
        );
        if (stale === 0) return;
        if (Date.now() > deadline) throw new Error(`${stale} groups of account ${accountId} were not read again`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
  }

  /** Seeded accounts that may be updated now (cooldown over), with some of everything (or private). */
  async function candidates(where: string, limit: number): Promise<{ account_id: number; updated_at: Date }[]> {
    return q(
      `SELECT account_id, updated_at FROM accounts
        WHERE next_allowed_time < now() AND account_id > 1 AND ${where} ORDER BY account_id LIMIT ${limit}`,
    );
  }

  it('should store a heavy-tailed population with history, activity and a catalogue', async () => {
    expect(report.rows.accounts).toBe(ACCOUNTS);
    expect(report.rows.account_badges).toBeGreaterThan(ACCOUNTS);
    expect(report.rows.inventory_items).toBeGreaterThan(ACCOUNTS);
    expect(report.rows.account_updates).toBeGreaterThan(ACCOUNTS);
    // Market prices of every card set of the seeded catalogue, each card's quote and the sets' figures from them.
    const [prices] = await q<Record<string, number>>(
      `SELECT (SELECT count(*) FROM apps)::int AS apps, (SELECT count(DISTINCT app_id) FROM card_market_prices)::int AS priced,
              (SELECT count(*) FROM card_market_prices)::int AS cards, (SELECT count(*) FROM app_market_prices)::int AS sets,
              (SELECT count(*) FROM app_market_prices m WHERE m.set_price <> (SELECT COALESCE(sum(c.lowest_price), 0) FROM card_market_prices c
                WHERE c.app_id = m.app_id AND c.badge_type = m.badge_type))::int AS mismatched`,
    );
    expect(prices).toEqual({
      apps: report.prices.apps,
      priced: report.prices.apps,
      cards: report.prices.cards,
      sets: 2 * report.prices.apps,
      mismatched: 0,
    });
    expect(report.prices.apps).toBeGreaterThan(10);
    const [counts] = await q<Record<string, number>>(
      `SELECT (SELECT count(*) FROM accounts WHERE updated_at IS NOT NULL)::int AS updated,
              (SELECT count(DISTINCT country_code) FROM accounts)::int AS countries,
              (SELECT count(*) FROM accounts WHERE city_name IS NOT NULL)::int AS cities,
              (SELECT count(*) FROM account_updates WHERE finished_at > now() - interval '30 days' AND before->>'xp' IS NOT NULL)::int AS recent,
              (SELECT count(*) FROM badges)::int AS badges, (SELECT count(*) FROM apps WHERE name <> '')::int AS named_apps`,
    );
    expect(counts.updated).toBe(ACCOUNTS);
    expect(counts.countries).toBeGreaterThan(3);
    expect(counts.cities).toBeGreaterThan(10);
    expect(counts.recent).toBeGreaterThan(ACCOUNTS / 4);
    expect(counts.badges).toBeGreaterThan(50);
    expect(counts.named_apps).toBeGreaterThan(50);
    // The seed must leave every index and key the migrations define.
    const [{ indexes }] = await q<{ indexes: number }>(
      `SELECT count(*)::int AS indexes FROM pg_indexes WHERE tablename IN ('account_badges', 'inventory_items', 'activity_events')`,
    );
    expect(indexes).toBeGreaterThanOrEqual(8);
    // A row for every group a seeded account is in (and the service's own), owners among them, ranked on the board.
    const [groups] = await q<Record<string, number>>(
      `SELECT (SELECT count(DISTINCT group_id) FROM account_groups)::int AS seen,
              (SELECT count(*) FROM groups WHERE gid IN (SELECT group_id::bigint FROM account_groups))::int AS stored,
              (SELECT count(*) FROM groups WHERE owner_account_id IS NOT NULL)::int AS owned,
              (SELECT count(*) FROM groups WHERE privacy <> 'hidden')::int AS ranked`,
    );
    expect(groups.seen).toBeGreaterThan(10);
    expect(groups.stored).toBe(groups.seen);
    expect(groups.owned).toBeGreaterThan(0);
    expect(report.groups).toBeGreaterThanOrEqual(groups.seen);
    const board = await ctx
      .http()
      .post('/v1/leaderboard.getGroupLeaderboard')
      .set('Authorization', `Bearer ${key}`)
      .send({ leaderboard: 'most_members' })
      .expect(200);
    expect(board.body.rankedOutOf).toBe(groups.ranked);
    // The seeded day's trend snapshot: every metric globally, per region and per country, counts as stored.
    const trend = await ctx
      .http()
      .post('/v1/analytics.getTrend')
      .set('Authorization', `Bearer ${key}`)
      .send({ domain: 'accounts', metric: 'xp', scope: 'global', window: '7d' })
      .expect(200);
    const [xp] = await q<Record<string, number>>(
      `SELECT count(*)::int AS count, percentile_disc(0.5) WITHIN GROUP (ORDER BY xp) AS p50,
              percentile_disc(0.9) WITHIN GROUP (ORDER BY xp) AS p90, percentile_disc(0.99) WITHIN GROUP (ORDER BY xp) AS p99
         FROM accounts WHERE updated_at IS NOT NULL`,
    );
    // Today's last, after the days the seeded runs cover (test/e2e/seeded-trends.e2e.spec.ts checks those).
    expect(trend.body.points.length).toBe(7);
    expect(trend.body.points.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), ...xp });
    const [{ scopes }] = await q<{ scopes: number }>('SELECT count(DISTINCT scope_key)::int AS scopes FROM analytics_daily_quantiles');
    expect(scopes).toBeGreaterThan(counts.countries);
  });

  it('should be unchanged by a real update at the simulated time of its last seeded run', async () => {
    const accounts = [
      ...(await candidates(`privacy = 'public' AND friends > 0 AND apps > 0 AND badges > 5`, 3)),
      ...(await candidates(`privacy = 'private'`, 1)),
    ];
    expect(accounts).toHaveLength(4);
    for (const { account_id: accountId, updated_at: updatedAt } of accounts) {
      const seeded = await stored(accountId);
      expect(seeded.badges.length).toBeGreaterThan(0);
      const groupsRead = await staleGroups(accountId);
      await update(accountId, updatedAt.getTime());
      await groupsRead();
      expect(await stored(accountId)).toEqual(seeded);
      const [run] = await q<{ before: unknown; after: unknown }>(
        'SELECT before, after FROM account_updates WHERE account_id = $1 ORDER BY finished_at DESC LIMIT 1',
        [accountId],
      );
      expect(run.after).toEqual(run.before);
      const [{ fresh }] = await q<{ fresh: number }>(
        `SELECT count(*)::int AS fresh FROM activity_events WHERE account_id = $1 AND occurred_at > $2`,
        [accountId, updatedAt],
      );
      expect(fresh).toBe(0);
    }
  });

  it('should see the changes of an update at a later simulated time (the comparison can fail)', async () => {
    const universe = ctx.simulator.universe;
    const [later] = (await candidates(`privacy = 'public' AND badges > 0`, 100)).filter(({ account_id, updated_at }) => {
      const then = universe.badges(account_id, universe.tickAt(updated_at.getTime()));
      const soon = universe.badges(account_id, universe.tickAt(updated_at.getTime() + 120 * 86_400_000));
      return soon.playerXp > then.playerXp;
    });
    expect(later).toBeDefined();
    const seeded = await stored(later.account_id);
    await update(later.account_id, later.updated_at.getTime() + 120 * 86_400_000);
    const updated = await stored(later.account_id);
    expect(updated.badges).not.toEqual(seeded.badges);
    expect(Number(updated.account.xp)).toBeGreaterThan(Number(seeded.account.xp));
  });
});
