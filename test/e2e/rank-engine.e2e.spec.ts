import Redis from 'ioredis';
import { xpForLevel } from '../../src/platform/levels';
import { COLUMN_BOARDS } from '../../src/ranks/account-boards';
import { LazyBoards } from '../../src/ranks/lazy-boards.service';
import { RankEngine } from '../../src/ranks/rank-engine.service';
import { RankReader } from '../../src/ranks/rank-reader.service';
import { AccountRankReader } from '../../src/ranks/account-rank-reader.service';
import { RankReplicaService } from '../../src/ranks/replica/rank-replica.service';
import { RANKED_COLUMNS, SCOPE_LEVELS, cellOf, scopeKeysOf } from '../../src/ranks/rank-scopes';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { killSubscribers } from '../support/subscribers';
import { ChangeFeedFollower } from '../../src/change-feed/change-feed-follower';
import { nudgeChannel } from '../../src/change-feed/change-entry';
import { REDIS_URL } from '../support/test-app';

type Row = Record<string, string | number | null> & { account_id: number };

/** The ranks a full recomputation gives: score descending then account id; scores of 0 are unranked (rank 0), listed last. */
function recompute(rows: Row[], column: string): { accountId: number; rank: number }[] {
  const scored = rows.filter((row) => Number(row[column]) > 0);
  scored.sort((a, b) => Number(b[column]) - Number(a[column]) || a.account_id - b.account_id);
  const zeros = rows.filter((row) => Number(row[column]) <= 0).sort((a, b) => a.account_id - b.account_id);
  return [
    ...scored.map((row, i) => ({ accountId: row.account_id, rank: i + 1 })),
    ...zeros.map((row) => ({ accountId: row.account_id, rank: 0 })),
  ];
}

/** Every (scope key → accounts in it) of the stored, refreshed accounts. */
function scopes(rows: Row[]): Map<string, Row[]> {
  const byScope = new Map<string, Row[]>();
  for (const row of rows) {
    const cell = cellOf({
      region: row.region as string,
      countryName: row.country_name as string,
      stateName: row.state_name as string,
      cityName: row.city_name as string,
    });
    for (const scope of Object.values(scopeKeysOf(cell))) byScope.set(scope, [...(byScope.get(scope) ?? []), row]);
  }
  return byScope;
}

describe('rank engine', () => {
  let ctx: PipelineContext;
  let key: string;
  let redis: Redis;
  const post = (path: string, body: Record<string, unknown>) =>
    ctx.http().post(`/v1/${path}`).set('Authorization', `Bearer ${key}`).send(body);
  const rows = (): Promise<Row[]> =>
    ctx.dataSource.query(
      `SELECT account_id, region, country_name, state_name, city_name, ${RANKED_COLUMNS.join(', ')} FROM accounts WHERE updated_at IS NOT NULL`,
    );
  const refresh = async (ids: number[]) => {
    for (const accountId of ids) await post('account.queueUpdate', { id: { accountId } }).expect(204);
    for (const accountId of ids) await ctx.waitForCompletion(accountId, key, 20_000);
  };

  /** Compares every board in every scope, position by position, with a recomputation from PostgreSQL. */
  async function expectRanksEqualRecomputation(): Promise<number> {
    const reader = ctx.app.get(RankReader);
    const stored = await rows();
    let compared = 0;
    for (const [scope, members] of scopes(stored)) {
      const location = scope === 'g' ? null : [locationOf(scope)];
      for (const column of RANKED_COLUMNS) {
        const board = await reader.scope(column, location);
        const expected = recompute(members, column);
        expect({ scope, column, population: board.population }).toEqual({ scope, column, population: expected.length });
        const window = await reader.window(board, 1, expected.length);
        expect(window.map(({ accountId, rank }) => ({ accountId, rank }))).toEqual(expected);
        compared++;
      }
    }
    return compared;
  }

  /**
   * The API process's replica of the boards (which the profile reads) serves, and answers every stored account's
   * ranks and totals on every board as the engine's sets do (AccountRankReader.accountRanks reads those).
   */
  async function expectReplicaEqualsEngine(): Promise<void> {
    const replica = ctx.app.get(RankReplicaService);
    const deadline = Date.now() + 20_000;
    while (!replica.serving && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replica.serving).toBe(true);
    const reader = ctx.app.get(AccountRankReader);
    // By column: the engine's ranks of the board each column scores (valid_playtime's are playtime's).
    const plain = (ranks: Map<string, { ranks: number[]; totals: number[] }> | null, column: (key: string) => string) =>
      ranks && Object.fromEntries([...ranks].map(([key, { ranks, totals }]) => [column(key), { ranks, totals }]));
    for (const { account_id } of await rows()) {
      expect({ account_id, ranks: plain((await reader.columnRanks(account_id))?.byColumn() ?? null, (column) => column) }).toEqual({
        account_id,
        ranks: plain(await reader.accountRanks(account_id), (board) => COLUMN_BOARDS[board as keyof typeof COLUMN_BOARDS]!),
      });
    }
    expect(await reader.columnRanks(999_999_999)).toBeNull();
  }

  beforeAll(async () => {
    ctx = await startPipeline('ranks', { env: { UPDATE_COOLDOWN_SECONDS: '0' } });
    redis = new Redis(REDIS_URL);
    key = await ctx.apiKey(2);
    await ctx.startWorker();
    await refresh(Array.from({ length: 40 }, (_, i) => i + 2));
  }, 90_000);
  afterAll(async () => {
    redis.disconnect();
    await ctx.close();
  });

  it('should give every board in every scope the ranks a full recomputation gives, after a burst of updates', async () => {
    expect(await expectRanksEqualRecomputation()).toBeGreaterThan(RANKED_COLUMNS.length * 5);
    ctx.clock.advance(30 * 86_400_000);
    await refresh([2, 5, 9, 14, 20, 27, 33, 41, 42, 43]);
    await expectRanksEqualRecomputation();
    await expectReplicaEqualsEngine();
  }, 90_000);

  it('should build per-app and per-badge boards on first read and keep them in step with updates', async () => {
    const lazy = ctx.app.get(LazyBoards);
    const reader = ctx.app.get(RankReader);
    const [{ app_id: appId }] = await ctx.dataSource.query(
      'SELECT app_id FROM account_apps GROUP BY app_id ORDER BY count(*) DESC, app_id LIMIT 1',
    );
    const [{ badge_id: badgeId }] = await ctx.dataSource.query(
      'SELECT badge_id FROM account_badges GROUP BY badge_id ORDER BY count(*) DESC, badge_id LIMIT 1',
    );
    const expectBoards = async () => {
      const apps: { account_id: number }[] = await ctx.dataSource.query(
        `SELECT x.account_id FROM account_apps x JOIN accounts a USING (account_id)
          WHERE x.app_id = $1 AND a.updated_at IS NOT NULL ORDER BY x.playtime DESC, x.account_id`,
        [appId],
      );
      const appBoard = await lazy.scope('app', appId, null);
      expect((await reader.window(appBoard, 1, apps.length + 5)).map((e) => e.accountId)).toEqual(apps.map((r) => r.account_id));
      const levels: { account_id: number }[] = await ctx.dataSource.query(
        `SELECT x.account_id FROM account_badges x JOIN accounts a USING (account_id)
          WHERE x.badge_id = $1 AND a.updated_at IS NOT NULL ORDER BY x.level DESC, x.completion_time, x.account_id`,
        [badgeId],
      );
      const levelBoard = await lazy.scope('badge_highest_level', badgeId, null);
      expect((await reader.window(levelBoard, 1, levels.length + 5)).map((e) => e.accountId)).toEqual(levels.map((r) => r.account_id));
      const [located] = await ctx.dataSource.query(
        `SELECT country_name FROM accounts WHERE updated_at IS NOT NULL AND country_name IS NOT NULL
          GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
      );
      const inCountry = await lazy.scope('app', appId, [{ country: located.country_name }]);
      const [{ n }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS n FROM account_apps x JOIN accounts a USING (account_id)
          WHERE x.app_id = $1 AND a.updated_at IS NOT NULL AND a.country_name = $2`,
        [appId, located.country_name],
      );
      expect(inCountry.population).toBe(n);
    };
    await expectBoards();
    ctx.clock.advance(60 * 86_400_000);
    await refresh([3, 6, 10, 15, 21]);
    await expectBoards();
  }, 60_000);

  it('should drop the least recently read per-app boards once they hold more than the budget, and rebuild them on read', async () => {
    const lazy = ctx.app.get(LazyBoards);
    const reader = ctx.app.get(RankReader);
    const apps: { app_id: number; n: number }[] = await ctx.dataSource.query(
      'SELECT app_id, count(*)::int AS n FROM account_apps GROUP BY app_id ORDER BY count(*) DESC, app_id LIMIT 3',
    );
    const budget = ctx.config.ranks.lazyBudget;
    const [first, second] = [await lazy.scope('app', apps[0].app_id, null), await lazy.scope('app', apps[1].app_id, null)];
    // A budget the newest board alone fills: every other board goes.
    (ctx.config.ranks as { lazyBudget: number }).lazyBudget = apps[2].n;
    try {
      await redis.del(`${first.key.replace(/:app:.*$/, '')}:idx:app:${apps[2].app_id}`);
      const third = await lazy.scope('app', apps[2].app_id, null);
      expect(await redis.exists(first.key, second.key)).toBe(0);
      expect(await redis.zcard(third.key)).toBe(apps[2].n);
    } finally {
      (ctx.config.ranks as { lazyBudget: number }).lazyBudget = budget;
    }
    const again = await lazy.scope('app', apps[0].app_id, null);
    expect(again.population).toBe(apps[0].n);
    expect((await reader.window(again, 1, 1))[0]).toBeDefined();
  });

  it('should answer ranks in the profile in the five scopes, with totals, and keep a daily history', async () => {
    const [located] = (await rows()).filter((row) => row.city_name);
    // Refreshed last, so the history point it records is its current rank.
    await refresh([located.account_id]);
    const stored = await rows();
    const me = stored.find((row) => row.account_id === located.account_id)!;
    const byScope = scopes(stored);
    /** The ranks and totals a recomputation gives one account on one column's boards, as the profile writes them. */
    const expectedOf = (account: Row, column: string) => {
      const keys = scopeKeysOf(
        cellOf({
          region: account.region as string,
          countryName: account.country_name as string,
          stateName: account.state_name as string,
          cityName: account.city_name as string,
        }),
      );
      return SCOPE_LEVELS.map((level) => {
        const scope = keys[level];
        if (!scope) return [0, 0];
        const board = recompute(byScope.get(scope)!, column);
        return [board.find((entry) => entry.accountId === account.account_id)!.rank, board.length];
      });
    };
    // The profile reads the replica, which heard of the update before it was announced complete.
    expect(ctx.app.get(RankReplicaService).serving).toBe(true);
    const info = await post('account.getInfo', { id: { accountId: me.account_id } }).expect(200);
    const expected = expectedOf(me, 'xp');
    // Every board of several profiles, those where the account scores 0 (unranked: rank 0) included.
    let zeros = 0;
    for (const account of [me, ...stored.slice(0, 6)]) {
      const profile = account === me ? info : await post('account.getInfo', { id: { accountId: account.account_id } }).expect(200);
      expect(profile.body.currentRanks).toHaveLength(Object.keys(COLUMN_BOARDS).length);
      for (const entry of profile.body.currentRanks as { leaderboard: string; ranks: string; totals: string }[]) {
        const column = COLUMN_BOARDS[entry.leaderboard as keyof typeof COLUMN_BOARDS] as string;
        const want = expectedOf(account, column);
        expect({ account: account.account_id, ...entry }).toEqual({
          account: account.account_id,
          leaderboard: entry.leaderboard,
          ranks: want.map((e) => e[0]).join(','),
          totals: want.map((e) => e[1]).join(','),
        });
        if (Number(account[column]) <= 0) zeros++;
      }
    }
    expect(zeros).toBeGreaterThan(0);
    expect(info.body.currentBestRanks.find((entry: { leaderboard: string }) => entry.leaderboard === 'xp').ranks).toBeDefined();

    const history = await post('account.listLeaderboardHistory', { id: { accountId: me.account_id } }).expect(200);
    const xpPoints = history.body.histories.filter((point: { leaderboard: string }) => point.leaderboard === 'xp');
    expect(xpPoints.length).toBeGreaterThanOrEqual(1);
    expect(xpPoints.at(-1)).toMatchObject({ rank: expected[0][0], score: Number(me.xp) });
    expect(history.body.histories.map((point: { leaderboard: string }) => point.leaderboard)).not.toContain('valid_playtime');
  });

  it('should say how far down the board each level milestone reaches', async () => {
    const stored = await rows();
    const res = await post('leaderboard.getLowestRanks', { leaderboard: 'xp' }).expect(200);
    expect(Object.keys(res.body).length).toBeGreaterThan(0);
    for (const [level, rank] of Object.entries(res.body)) {
      expect(rank).toBe(stored.filter((row) => Number(row.xp) >= xpForLevel(Number(level))).length);
    }
    await post('leaderboard.getLowestRanks', { leaderboard: 'badges' }).expect(422);
  });

  it('should keep the replica in step from its position when its nudges are lost and its follower stopped, without reloading', async () => {
    const replica = ctx.app.get(RankReplicaService);
    const follower = ctx.app.get(ChangeFeedFollower);
    await expectReplicaEqualsEngine();
    const loads = follower.stateOf('rank-replica')!.loads;
    // Two subscribers of the nudges: the API's follower and the worker's durable consumer (the watches).
    expect(await killSubscribers(redis, nudgeChannel(ctx.config))).toBe(2);
    await follower.stop();
    await refresh([3, 4]);
    follower.start();
    // A read begun now (as a nudge asks for) finds the runs committed while it was stopped.
    follower.nudged(null);
    await follower.settled();
    await expectReplicaEqualsEngine();
    expect(replica.serving).toBe(true);
    expect(follower.stateOf('rank-replica')!.loads).toBe(loads);
  }, 60_000);

  it('should move an account out of its old scopes once when it is placed several times at once', async () => {
    const engine = ctx.app.get(RankEngine);
    // Two accounts in different countries: the first moves to where the second lives (a place the boards know).
    const [moving, staying] = await ctx.dataSource.query(
      `SELECT DISTINCT ON (country_name) account_id FROM accounts
        WHERE updated_at IS NOT NULL AND country_name IS NOT NULL AND city_name IS NOT NULL ORDER BY country_name, account_id LIMIT 2`,
    );
    await ctx.dataSource.query(
      `UPDATE accounts a SET region = b.region, country_name = b.country_name, state_name = b.state_name, city_name = b.city_name
        FROM accounts b WHERE a.account_id = $1 AND b.account_id = $2`,
      [moving.account_id, staying.account_id],
    );
    // The worker's placement and a rebuild's re-placing of the same account can meet like this.
    await Promise.all(Array.from({ length: 8 }, () => engine.place([moving.account_id])));
    await expectRanksEqualRecomputation();
  });

  it('should rebuild over the served version after rows changed behind its back, answering reads throughout', async () => {
    const engine = ctx.app.get(RankEngine);
    const version = await redis.get(engine.keys.version);
    const [{ app_id: appId }] = await ctx.dataSource.query('SELECT app_id FROM account_apps ORDER BY app_id LIMIT 1');
    await ctx.app.get(LazyBoards).scope('app', appId, null);
    // What a restore would do: scores, places and playtimes change without an update run.
    await ctx.dataSource.query(`UPDATE accounts SET xp = xp + account_id * 37, badges = 0 WHERE account_id % 3 = 0`);
    // Moved to a place the boards know already: a new one shows in location filters within the reader's 10 s cache.
    await ctx.dataSource.query(
      `UPDATE accounts a SET region = b.region, country_name = b.country_name, state_name = b.state_name, city_name = b.city_name
        FROM (SELECT * FROM accounts WHERE updated_at IS NOT NULL AND city_name IS NOT NULL ORDER BY account_id LIMIT 1) b
        WHERE a.account_id % 4 = 1`,
    );
    await ctx.dataSource.query('UPDATE account_apps SET playtime = playtime + 1000 WHERE app_id = $1', [appId]);
    let rebuilding = true;
    const statuses: number[] = [];
    const reads = (async () => {
      while (rebuilding) statuses.push((await post('leaderboard.getAccountLeaderboard', { leaderboard: 'xp' })).status);
    })();
    await engine.rebuild().finally(() => (rebuilding = false));
    await reads;
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(await redis.get(engine.keys.version)).toBe(version);
    // Only the served version is left, and its per-app boards were dropped, to be built again from the rows on read.
    expect(new Set((await redis.keys(engine.keys.everyVersion)).map((key) => engine.keys.versionOf(key)))).toEqual(new Set([version]));
    expect(await redis.keys(`${engine.keys.lazy(version!)}:*`)).toEqual([]);
    await expectRanksEqualRecomputation();
    await expectReplicaEqualsEngine();
    // The per-app board, built again on read, holds the playtimes as they are now.
    const owners: { account_id: number; playtime: number }[] = await ctx.dataSource.query(
      `SELECT x.account_id, x.playtime FROM account_apps x JOIN accounts a USING (account_id)
        WHERE x.app_id = $1 AND a.updated_at IS NOT NULL ORDER BY x.playtime DESC, x.account_id`,
      [appId],
    );
    const board = await ctx.app.get(LazyBoards).scope('app', appId, null);
    const window = await ctx.app.get(RankReader).window(board, 1, owners.length);
    expect(window.map((entry) => [entry.accountId, entry.score])).toEqual(owners.map((row) => [row.account_id, row.playtime]));
  }, 60_000);

  it('should rebuild the ranks from PostgreSQL after a Redis flush, answering 503 meanwhile', async () => {
    const engine = ctx.app.get(RankEngine);
    const before = await redis.get(engine.keys.version);
    await redis.del(engine.keys.version);
    const during = await post('leaderboard.getAccountLeaderboard', { leaderboard: 'xp' });
    expect([200, 503]).toContain(during.status);
    if (during.status === 503) expect(during.headers['content-type']).toMatch(/problem\+json/);
    await engine.rebuild();
    const after = await redis.get(engine.keys.version);
    expect(after).not.toBe(before);
    expect(await redis.keys(engine.keys.pattern(before!))).toEqual([]);
    await expectRanksEqualRecomputation();
    await post('leaderboard.getAccountLeaderboard', { leaderboard: 'xp' }).expect(200);
    // The rebuild told the replica to read every row again; it serves the same ranks once it has.
    await expectReplicaEqualsEngine();
  }, 60_000);
});

/** A request location naming exactly the scope key's own level. */
function locationOf(scope: string): Record<string, string> {
  const [kind, rest] = [scope[0], scope.slice(2)];
  const [first, second, third] = rest.split('|');
  if (kind === 'r') return { region: first };
  if (kind === 'c') return { country: first };
  if (kind === 's') return { country: first, state: second };
  return { country: first, ...(second ? { state: second } : {}), city: third };
}
