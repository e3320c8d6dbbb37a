import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { AccountWriter } from '../../src/refresh/account-writer';
import { PlatformSnapshot, PlatformSnapshotReader } from '../../src/refresh/platform-snapshot';
import { TOP_CACHE_MS, ViewTrends } from '../../src/accounts/views/view-trends';
import { ActivityRecorder } from '../../src/activity/activity-recorder';
import { TrendingCounter } from '../../src/common/redis/trending-counter';
import { redisKey } from '../../src/common/redis/redis.module';
import { rebuildDerivedState } from '../../src/derived/derived-state';
import { BoardChanges } from '../../src/leaderboards/changes/board-changes.service';
import { ChangeSnapshotRefresher } from '../../src/leaderboards/changes/change-snapshot-refresher.service';
import { FRESHNESS } from '../../src/leaderboards/changes/change-snapshots.service';
import { ChangeSweeper } from '../../src/leaderboards/changes/change-sweeper.service';
import { RankEngine } from '../../src/ranks/rank-engine.service';
import { memberOf } from '../../src/ranks/rank-scopes';
import { RankReplicaService } from '../../src/ranks/replica/rank-replica.service';
import { changesReferenceSql } from '../support/changes-reference';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { REDIS_URL } from '../support/test-app';

const MINE = ['item-class-owners', 'app-owner-counts', 'board-changes', 'view-trends'];
const DAY_MS = 86_400_000;

const RECOMPUTED_ITEM_OWNERS = 'SELECT class_id, count(*)::int AS owners FROM inventory_items GROUP BY class_id ORDER BY class_id';
const MAINTAINED_ITEM_OWNERS = 'SELECT class_id, owners FROM item_class_owners WHERE owners <> 0 ORDER BY class_id';
const RECOMPUTED_APP_OWNERS = 'SELECT app_id, count(*)::int AS owners FROM account_apps GROUP BY app_id ORDER BY app_id';
const MAINTAINED_APP_OWNERS = 'SELECT app_id, owners FROM app_owner_counts WHERE owners <> 0 ORDER BY app_id';

/** Board, update counter and account column of the change boards the comparisons cover. */
const BOARDS = [
  ['xp', 'xp', 'xp'],
  ['badges', 'badges', 'badges'],
  ['apps', 'apps', 'apps'],
  ['playtime', 'playtime', 'playtime'],
] as const;
/** The live window, and two served from snapshots computed from PostgreSQL alone. */
const WINDOWS = [
  ['24h', 1],
  ['7d', 7],
  ['1y', 365],
] as const;

describe('flat reads: maintained owner counts, leaderboard changes, trending views', () => {
  let ctx: PipelineContext;
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}` });
  const queue = (accountId: number, force = false) =>
    ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId }, force }).expect(204);
  const accounts = Array.from({ length: 14 }, (_, i) => i + 2);

  beforeAll(async () => {
    // One trusted proxy: the trending test tells its viewers apart by the address it forwards.
    ctx = await startPipeline('flatreads', { env: { TRUST_PROXY_HOPS: '1' } });
    key = await ctx.apiKey(1);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'staff')`);
    await ctx.startWorker();
  });
  afterAll(() => ctx.close());

  async function writeDoctored(accountId: number, doctor: (snapshot: PlatformSnapshot) => PlatformSnapshot): Promise<void> {
    const snapshot = await ctx.worker!.get(PlatformSnapshotReader).read(accountId, async () => undefined);
    await ctx.worker!.get(AccountWriter).write(accountId, randomUUID(), doctor(snapshot), [], 3600);
    // What the updater does after the writer: the ranks the changes are measured against move too.
    await ctx.worker!.get(RankEngine).place([accountId]);
  }

  /** One page of leaderboard.getChanges equals the one-query recomputation over the base tables; returns its length. */
  async function expectPageEqualRecomputed(
    [leaderboard, counter, column]: (typeof BOARDS)[number],
    [window, days]: (typeof WINDOWS)[number],
    metric: 'score' | 'rank',
    direction: 'improvements' | 'declines',
    [topFilter, offset, limit]: readonly [string | undefined, number, number],
  ): Promise<number> {
    const body = { leaderboard, window, metric, direction, offset, limit, ...(topFilter ? { topFilter } : {}) };
    const res = await ctx.http().post('/v1/leaderboard.getChanges').send(body).expect(200);
    const expected = await ctx.dataSource.query(changesReferenceSql(column, metric, direction), [
      counter,
      new Date(Date.now() - days * DAY_MS),
      topFilter ? Number(topFilter) : null,
      limit,
      offset,
    ]);
    const got = res.body.changes.map((c: Record<string, unknown>) => ({
      accountId: c.accountId,
      oldRank: c.oldRank,
      newRank: c.newRank,
      rankDelta: c.rankDelta,
      oldScore: c.oldScore,
      newScore: c.newScore,
      latest: c.latestDate,
    }));
    expect({ body, got }).toEqual({
      body,
      got: expected.map((row: Record<string, unknown>) => ({ ...row, latest: (row.latest as Date).toISOString() })),
    });
    return got.length;
  }

  /** Every listed combination of leaderboard.getChanges equals the one-query recomputation over the base tables. */
  async function expectChangesEqualRecomputed(): Promise<number> {
    let listed = 0;
    for (const board of BOARDS)
      for (const window of WINDOWS)
        for (const metric of ['score', 'rank'] as const)
          for (const direction of ['improvements', 'declines'] as const)
            for (const page of [
              [undefined, 0, 100],
              [undefined, 2, 3],
              ['10', 0, 100],
            ] as const)
              listed += await expectPageEqualRecomputed(board, window, metric, direction, page);
    return listed;
  }

  /** Rank and top-N pages come from snapshots kept for two seconds; a comparison right after writes must not read an older one. */
  async function dropSnapshots(): Promise<void> {
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${ctx.config.redisPrefix}:changes:v*:snap*`);
      if (keys.length) await redis.del(...keys);
    } finally {
      await redis.quit();
    }
  }

  async function expectOwnerCountsEqualRecomputed(): Promise<void> {
    expect(await ctx.dataSource.query(MAINTAINED_ITEM_OWNERS)).toEqual(await ctx.dataSource.query(RECOMPUTED_ITEM_OWNERS));
    expect(await ctx.dataSource.query(MAINTAINED_APP_OWNERS)).toEqual(await ctx.dataSource.query(RECOMPUTED_APP_OWNERS));
  }

  it('should keep the owner counts and the changes equal to a recomputation through a burst of updates', async () => {
    await Promise.all(accounts.map((accountId) => queue(accountId)));
    for (const accountId of accounts) await ctx.waitForCompletion(accountId, key, 20_000);
    await expectOwnerCountsEqualRecomputed();
    // First updates are baselines, not changes.
    expect(
      (
        await ctx
          .http()
          .post('/v1/leaderboard.getChanges')
          .send({ leaderboard: 'xp', window: '24h', metric: 'score', direction: 'improvements' })
      ).body,
    ).toMatchObject({ changes: [] });

    // Time passes on the platform; most accounts update again, two of them lose apps and items meanwhile.
    ctx.clock.advance(120 * DAY_MS);
    const again = accounts.slice(0, 10);
    await Promise.all(again.map((accountId) => queue(accountId, true)));
    const [lost, halved] = accounts.slice(10).filter((id) => !ctx.simulator.universe.isPrivate(id));
    await Promise.all([
      writeDoctored(lost, (s) => ({
        ...s,
        games: s.games.visibility === 'public' ? { ...s.games, games: [] } : s.games,
        inventory: s.inventory.visibility === 'public' ? { ...s.inventory, items: [] } : s.inventory,
      })),
      writeDoctored(halved, (s) => ({
        ...s,
        badges: { ...s.badges, playerXp: Math.max(0, s.badges.playerXp - 500) },
        games: s.games.visibility === 'public' ? { ...s.games, games: s.games.games.filter((_, i) => i % 2) } : s.games,
        inventory: s.inventory.visibility === 'public' ? { ...s.inventory, items: s.inventory.items.filter((_, i) => i % 2) } : s.inventory,
      })),
    ]);
    for (const accountId of again) await ctx.waitForCompletion(accountId, key, 20_000);
    await expectOwnerCountsEqualRecomputed();
    await dropSnapshots();
    // The API computes these snapshots' ranks from its replica of the boards (the worker's, below, from Redis).
    expect(ctx.app.get(RankReplicaService).serving).toBe(true);
    expect(await expectChangesEqualRecomputed()).toBeGreaterThan(0);

    // The served counts are the maintained ones.
    const [{ app_id: appId, owners }] = await ctx.dataSource.query(
      RECOMPUTED_APP_OWNERS.replace('ORDER BY app_id', 'ORDER BY 2 DESC, 1 LIMIT 1'),
    );
    const listed = await ctx.http().post('/v1/app.listOwners').set(auth()).send({ appId, limit: 1 }).expect(200);
    expect(listed.body.trackedOwners).toBe(owners);
    const [{ class_id: classId, owners: holders }] = await ctx.dataSource.query(
      RECOMPUTED_ITEM_OWNERS.replace('ORDER BY class_id', 'ORDER BY 2 DESC, 1 LIMIT 1'),
    );
    const found = await ctx
      .http()
      .post('/v1/item.findOwners')
      .send({ itemIds: [Number(classId)] })
      .expect(200);
    expect(found.body.items[0].totalOwners).toBe(holders);
  }, 120_000);

  it('should slide the windows: a run leaving a window stops counting in it at the next sweep', async () => {
    // Runs moved back in time behind the service's back, as if they had happened then; placing the accounts again
    // is what an update would have done. Accounts 2–4: the baseline two days ago, the change just inside 24 hours.
    await ctx.dataSource.query(
      `UPDATE account_updates SET finished_at = finished_at - interval '2 days' WHERE status = 'completed' AND account_id IN (2, 3, 4, 5, 6)`,
    );
    const [moved]: [{ account_id: number }[], number] = await ctx.dataSource.query(
      `UPDATE account_updates u SET finished_at = now() - interval '1 day' + interval '3 seconds'
        WHERE status = 'completed' AND account_id IN (2, 3, 4)
          AND finished_at = (SELECT max(finished_at) FROM account_updates p WHERE p.account_id = u.account_id AND p.status = 'completed')
          AND EXISTS (SELECT 1 FROM account_updates p WHERE p.account_id = u.account_id AND p.status = 'completed' AND p.finished_at < u.finished_at)
        RETURNING account_id`,
    );
    expect(moved).toHaveLength(3);
    // As the writer keeps it: an account's updated_at is its latest completed run's end.
    await ctx.dataSource.query(
      `UPDATE accounts a SET updated_at = (SELECT max(finished_at) FROM account_updates u WHERE u.account_id = a.account_id AND u.status = 'completed')
        WHERE account_id IN (2, 3, 4, 5, 6)`,
    );
    await ctx.worker!.get(BoardChanges).place([2, 3, 4, 5, 6]);
    const changes = ctx.worker!.get(BoardChanges);
    const version = (await changes.currentVersion())!;
    const redis = new Redis(REDIS_URL);
    // How many of the three are placed in any of the 24h window's sets (every column's up, down, cur and old).
    const dayKeys = changes.keys.placementKeys(version).filter((key) => key.includes(':24h:'));
    const inDay = async () => {
      const placed = new Set<string>();
      for (const key of dayKeys)
        (await redis.zmscore(key, ...[2, 3, 4].map(memberOf))).forEach((score, i) => score !== null && placed.add(String(i)));
      return placed.size;
    };
    // Those whose run changed a column (at least one of the three) hold entries in the 24h sets until the sweep.
    expect(await inDay()).toBeGreaterThan(0);
    // Past the 24h edge of the runs moved back a day; the sweeper (every second) places those accounts again.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    await ctx.worker!.get(ChangeSweeper).sweep();
    expect(await inDay()).toBe(0);
    await redis.quit();
    await dropSnapshots();
    await expectChangesEqualRecomputed();
  }, 120_000);

  it('should keep no live state for the windows past 24 hours, and their snapshots under the byte budget', async () => {
    const redis = new Redis(REDIS_URL);
    const changes = ctx.app.get(BoardChanges);
    const budget = ctx.config.changes.snapshotBudgetBytes;
    try {
      const sets = await redis.keys(`${ctx.config.redisPrefix}:changes:v*:s:*`);
      expect(sets.length).toBeGreaterThan(0);
      expect(sets.filter((key) => !key.includes(':s:24h:'))).toEqual([]);
      // A budget smaller than any snapshot: each one stored drops every other, and every page still reads right.
      (ctx.config.changes as { snapshotBudgetBytes: number }).snapshotBudgetBytes = 1;
      await dropSnapshots();
      let listed = 0;
      for (const board of BOARDS)
        for (const direction of ['improvements', 'declines'] as const) {
          listed += await expectPageEqualRecomputed(board, WINDOWS[2], 'score', direction, [undefined, 1, 4]);
          listed += await expectPageEqualRecomputed(board, WINDOWS[1], 'rank', direction, [undefined, 0, 100]);
          const version = (await changes.currentVersion())!;
          const metas = await redis.keys(`${ctx.config.redisPrefix}:changes:v${version}:snap:*:meta`);
          expect(metas).toHaveLength(1);
        }
      expect(listed).toBeGreaterThan(0);
    } finally {
      (ctx.config.changes as { snapshotBudgetBytes: number }).snapshotBudgetBytes = budget;
      await redis.quit();
    }
  }, 120_000);

  it('should keep the snapshots read lately fresh from the worker, before a reader has to wait', async () => {
    const refresher = ctx.worker!.get(ChangeSnapshotRefresher);
    const version = (await ctx.app.get(BoardChanges).currentVersion())!;
    const redis = new Redis(REDIS_URL);
    const metaKey = `${ctx.config.redisPrefix}:changes:v${version}:snap:xp:7d:meta`;
    const meta = async () => JSON.parse((await redis.get(metaKey))!) as { at: number };
    try {
      await dropSnapshots();
      await expectPageEqualRecomputed(BOARDS[0], WINDOWS[1], 'score', 'improvements', [undefined, 0, 100]);
      // Just computed: nothing to do yet.
      expect(await refresher.refresh()).toBe(0);
      // Half as old as readers accept: computed again, for the pair that was read (xp over 7 days) only, by the worker,
      // which keeps no replica of the boards and looks the ranks up in Redis.
      expect(ctx.worker!.get(RankReplicaService).serving).toBe(false);
      const aged = { ...(await meta()), at: Date.now() - FRESHNESS.snapshot.freshMs / 2 - 1_000 };
      await redis.set(metaKey, JSON.stringify(aged), 'KEEPTTL');
      expect(await refresher.refresh()).toBe(1);
      expect((await meta()).at).toBeGreaterThan(aged.at);
      await expectPageEqualRecomputed(BOARDS[0], WINDOWS[1], 'score', 'improvements', [undefined, 0, 100]);
      // One the budget dropped is left to its next reader: the worker never computes more than the budget holds.
      await redis.del(metaKey);
      expect(await refresher.refresh()).toBe(0);
      expect(await redis.exists(metaKey)).toBe(0);
    } finally {
      await redis.quit();
    }
  }, 120_000);

  it('should rebuild the same state from the base tables', async () => {
    await ctx.dataSource.query('UPDATE item_class_owners SET owners = owners + 3');
    await ctx.dataSource.query('DELETE FROM app_owner_counts WHERE app_id % 2 = 0');
    const redis = new Redis(REDIS_URL);
    try {
      const sets = await redis.keys(`${ctx.config.redisPrefix}:changes:v*:s:*`);
      await redis.del(...sets.filter((_, i) => i % 2 === 0));
      expect((await rebuildDerivedState(ctx.app, MINE)).sort()).toEqual([...MINE].sort());
    } finally {
      await redis.quit();
    }
    await expectOwnerCountsEqualRecomputed();
    await dropSnapshots();
    await expectChangesEqualRecomputed();
  }, 120_000);

  it('should rank trending profiles as a union of the window’s buckets would, before and after a rebuild', async () => {
    const trends = ctx.app.get(ViewTrends);
    const redis = new Redis(REDIS_URL);
    // The per-request union of the window's buckets the rolling rankings replaced, on the same keys.
    const counter = new TrendingCounter(redis, redisKey(ctx.config, 'views'));
    // A viewer is the key's account from an address: one address per visitor named here.
    const addresses = new Map<string, string>();
    const addressOf = (visitor: string) => {
      if (!addresses.has(visitor)) addresses.set(visitor, `198.51.100.${addresses.size + 1}`);
      return addresses.get(visitor)!;
    };
    const view = (accountId: number, visitor: string) =>
      ctx.http().post('/v1/account.getInfo').set(auth()).set('X-Forwarded-For', addressOf(visitor)).send({ id: { accountId } }).expect(200);
    const compare = async () => {
      // A top list is shared for a second (ViewTrends.top).
      await new Promise((resolve) => setTimeout(resolve, TOP_CACHE_MS + 100));
      for (const window of ['24h', '7d', '30d'] as const)
        for (const limit of [1, 3, 100]) {
          const union = await counter.top(window, limit);
          const res = await ctx.http().post('/v1/account.getTrending').send({ window, limit }).expect(200);
          expect(
            res.body.accounts.map((a: { accountId: number; uniqueViews: number; totalViews: number }) => [
              a.accountId,
              a.uniqueViews,
              a.totalViews,
            ]),
          ).toEqual(
            union
              .map((row) => [Number(row.member), row.unique, row.total])
              // The wire order (ViewsReaderService): ties by account id as a number.
              .sort((a, b) => b[1] - a[1] || b[2] - a[2] || a[0] - b[0]),
          );
        }
    };
    // Views before any ranking exists (built by the first read), then more once it does (raised by each hit).
    for (const [accountId, visitors] of [
      [2, 3],
      [3, 1],
      [4, 2],
    ] as const)
      for (let v = 0; v < visitors; v++) await view(accountId, `visitor-${v}`);
    await compare();
    for (const [accountId, visitors] of [
      [3, 4],
      [5, 1],
      [2, 1],
    ] as const)
      for (let v = 0; v < visitors; v++) await view(accountId, `late-${accountId}-${v}`);
    await view(3, 'late-3-0'); // a returning visitor: neither a hit nor a new viewer
    await compare();
    // Hits recorded behind the rankings' back (a seed writes through TrendingCounter): a rebuild takes them in.
    await counter.hit('6', 'seeded-visitor', new Date());
    await counter.hit('6', 'seeded-visitor-2', new Date(Date.now() - 3 * DAY_MS));
    await rebuildDerivedState(ctx.app, ['view-trends']);
    await compare();
    expect((await trends.computeTop('30d', 10, new Date())).map((row) => row.member)).toContain('6');
    await redis.quit();
  });

  it('should count an early craft exactly up to the milestone, and no further', async () => {
    const [{ badge_id: badgeId, holders }] = await ctx.dataSource.query(
      'SELECT badge_id, count(*)::int AS holders FROM account_badges GROUP BY badge_id ORDER BY 2 DESC, 1 LIMIT 1',
    );
    expect(holders).toBeGreaterThan(10);
    const ranked: { account_id: number; completion_time: Date }[] = await ctx.dataSource.query(
      'SELECT account_id, completion_time FROM account_badges WHERE badge_id = $1 ORDER BY completion_time, account_id',
      [badgeId],
    );
    const recorder = ctx.worker!.get(ActivityRecorder);
    for (const position of [...new Set([1, 3, 10, 11, ranked.length])].filter((n) => n <= ranked.length)) {
      const holder = ranked[position - 1];
      const craft = {
        eventType: 'badge_crafted' as const,
        occurredAt: new Date(),
        data: { badge: { badgeId, level: 1, xp: 100, completionTime: holder.completion_time.toISOString() } },
      };
      const events = await ctx.dataSource
        .transaction(async (manager) => {
          const ids = await recorder.record(manager, holder.account_id, [craft], new Set());
          const rows = await manager.query('SELECT event_type, data FROM activity_events WHERE id = ANY($1::bigint[])', [ids]);
          throw Object.assign(new Error('rollback'), { rows });
        })
        .catch((error: { rows: { event_type: string; data: { scarcity?: { globalCraftOrder: number } } }[] }) => error.rows);
      const milestone = events.find((row) => row.event_type === 'scarcity_milestone');
      if (position <= 10) expect(milestone?.data.scarcity).toEqual({ globalCraftOrder: position });
      else expect(milestone).toBeUndefined();
    }
  });
});
