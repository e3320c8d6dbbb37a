import { INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AccountAdminService } from '../../src/accounts/account-admin.service';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { dropDatabase } from '../../src/database/ensure-database';
import { createHttpApp } from '../../src/http-app';
import { PlatformSimulator } from '../../src/platform/simulator';
import { UpdateReconciler } from '../../src/refresh/update-reconciler.service';
import { WorkerModule } from '../../src/worker.module';
import { changesReferenceSql } from '../support/changes-reference';
import { cloneTemplate } from '../support/databases';
import { freePort } from '../support/ports';
import { PostgresProxy, PrivateRedis } from '../support/private-stores';
import { databaseUrl, viaAddress } from '../support/stores';
import { testConfig, uniqueName } from '../support/test-app';

/**
 * Faults under load, on stores of the test's own: a redis-server it kills and starts again empty, and PostgreSQL
 * reached through a proxy it cuts. The API and the worker run in this process (as the pipeline suites run them), with
 * the recovery intervals shortened to a second, over a small simulated population. After each fault: no account
 * `pending` or `in_progress` within 60 s of the store coming back, the view counts and the trending ranking as they
 * were before it (every view was rolled up into PostgreSQL before the fault), the xp board in PostgreSQL's order and its
 * changes as recomputed from the base tables (the derived state a Redis that came back empty rebuilds by itself), and
 * nothing but 503 with Retry-After among the answers while it lasted.
 */
const POPULATION = 40;
/** Accounts whose views the test counts (the load views only the others). */
const VIEWED = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const RECOVERY_MS = 60_000;
/** Queued by the test just before each fault (never by the load), so an update is under way when it strikes. */
const IN_FLIGHT = POPULATION;

interface TrendingRow {
  accountId: number;
  uniqueViews: number;
  totalViews: number;
}

/** View stats with `hits` more views by `viewers` new viewers, in every window. */
function addViews(stats: Record<string, number>, hits: number, viewers: number): Record<string, number> {
  const out = { ...stats };
  for (const window of ['24h', '7d', '30d']) {
    out[`total${window}`] += hits;
    out[`unique${window}`] += viewers;
  }
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Readers and a stream of updates, recording every answer that is a 5xx other than 503 with Retry-After. */
class Load {
  readonly bad: string[] = [];
  readonly statuses = new Map<number, number>();
  private running = true;
  private queueing = true;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly http: () => ReturnType<typeof request>,
    private readonly key: string,
  ) {}

  start(): void {
    const other = () => VIEWED.length + 1 + Math.floor(Math.random() * (POPULATION - VIEWED.length - 1));
    const auth = { Authorization: `Bearer ${this.key}` };
    const readers = [
      () =>
        this.http()
          .post('/v1/account.getInfo')
          .set(auth)
          .set('X-Forwarded-For', '192.0.2.1')
          .send({ id: { accountId: other() } }),
      () => this.http().post('/v1/leaderboard.getAccountLeaderboard').set(auth).send({ leaderboard: 'xp', start: 1, end: 10 }),
      () => this.http().post('/v1/stats.getStats').set(auth),
    ];
    for (const read of readers) this.loops.push(this.loop(read, () => this.running));
    this.loops.push(
      this.loop(
        () =>
          this.http()
            .post('/v1/account.queueUpdate')
            .set(auth)
            .send({ id: { accountId: other() } }),
        () => this.running && this.queueing,
      ),
    );
  }

  /** Stops queueing updates (the accounts then settle); the readers go on. */
  stopQueueing(): void {
    this.queueing = false;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(call: () => request.Test, go: () => boolean): Promise<void> {
    while (go()) {
      const res = await call().catch((error: Error) => ({ status: 0, headers: {}, text: error.message }) as unknown as request.Response);
      this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
      const served = res.status < 500 && res.status !== 0;
      if (!served && !(res.status === 503 && Number(res.headers['retry-after']) > 0))
        this.bad.push(`${res.status} ${String(res.text).slice(0, 200)}`);
      await sleep(20);
    }
  }
}

describe('store faults under load', () => {
  let redis: PrivateRedis;
  const postgres = new PostgresProxy();
  let simulator: PlatformSimulator;
  let name: string;
  let app: INestApplication;
  let worker: INestApplicationContext;
  let dataSource: DataSource;
  let key: string;
  let load: Load;
  let viewsBefore: Record<number, unknown>;
  let trendingBefore: TrendingRow[];
  /** Accounts the worker's UpdateReconciler put right (re-queued or settled). */
  let reconciled = 0;

  const http = () => request(app.getHttpServer());
  const viewStats = async (accountId: number) =>
    (await http().post('/v1/account.getViewStats').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(200)).body;
  /** The viewed accounts of the 7-day trending list, as the API answers it. */
  const trending = async () =>
    ((await http().post('/v1/account.getTrending').send({ window: '7d', limit: 100 }).expect(200)).body.accounts as { accountId: number }[])
      .filter((row) => VIEWED.includes(row.accountId))
      .map(({ accountId, uniqueViews, totalViews }: Record<string, unknown>) => ({ accountId, uniqueViews, totalViews }) as TrendingRow);
  const waiting = async () =>
    (await dataSource.query(
      `SELECT account_id, last_queue_status FROM accounts WHERE last_queue_status IN ('pending', 'in_progress')`,
    )) as {
      account_id: number;
    }[];
  /** The xp board's first ranks as the API answers them, against PostgreSQL's order (xp descending, then account id). */
  const boardMatches = async (): Promise<true | undefined> => {
    const expected: { account_id: number }[] = await dataSource.query(
      'SELECT account_id FROM accounts WHERE updated_at IS NOT NULL AND xp > 0 ORDER BY xp DESC, account_id LIMIT 30',
    );
    const ids: number[] = [];
    for (let start = 1; start <= 30; start += 10) {
      const res = await http()
        .post('/v1/leaderboard.getAccountLeaderboard')
        .set('Authorization', `Bearer ${key}`)
        .send({ leaderboard: 'xp', start, end: start + 9 });
      if (res.status !== 200) return undefined;
      ids.push(
        ...(res.body.accounts as ({ steamId: string } | null)[]).map((a) => (a ? Number(BigInt(a.steamId) - 76561197960265728n) : 0)),
      );
    }
    return JSON.stringify(ids) === JSON.stringify(expected.map((row) => row.account_id)) ? true : undefined;
  };

  /** leaderboard.getChanges (xp, 24 h) against its recomputation from the base tables (test/support/changes-reference.ts). */
  const changesMatch = async (): Promise<true | undefined> => {
    const res = await http()
      .post('/v1/leaderboard.getChanges')
      .send({ leaderboard: 'xp', window: '24h', metric: 'rank', direction: 'improvements', limit: 100 });
    if (res.status !== 200) return undefined;
    const expected: { accountId: number }[] = await dataSource.query(changesReferenceSql('xp', 'rank', 'improvements'), [
      'xp',
      new Date(Date.now() - 86_400_000),
      null,
      100,
      0,
    ]);
    const got = (res.body.changes as { accountId: number; newRank: number }[]).map(({ accountId, newRank }) => ({ accountId, newRank }));
    return JSON.stringify(got) ===
      JSON.stringify(expected.map(({ accountId, newRank }: Record<string, unknown>) => ({ accountId, newRank })))
      ? true
      : undefined;
  };

  /** Queues IN_FLIGHT and checks it is waiting or running: the fault strikes an update under way. */
  const queueInFlight = async () => {
    await http()
      .post('/v1/account.queueUpdate')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId: IN_FLIGHT } })
      .expect(204);
    expect((await waiting()).map((row) => row.account_id)).toContain(IN_FLIGHT);
  };

  /** After a fault: the store is back; every account settles, the boards and the views are as they were. */
  const expectRecovered = async (fault: string) => {
    const back = Date.now();
    await until('the API to answer again', async () => ((await http().get('/health')).status === 200 ? true : undefined), 30_000);
    load.stopQueueing();
    await until(`no account waiting after ${fault}`, async () => ((await waiting()).length === 0 ? true : undefined), RECOVERY_MS);
    const settledMs = Date.now() - back;
    await until(`the xp board in PostgreSQL's order after ${fault}`, boardMatches, RECOVERY_MS);
    await until(`the board changes as recomputed after ${fault}`, changesMatch, RECOVERY_MS);
    for (const accountId of VIEWED)
      await until(
        `the views of account ${accountId} after ${fault}`,
        async () => (JSON.stringify(await viewStats(accountId)) === JSON.stringify(viewsBefore[accountId]) ? true : undefined),
        15_000,
      );
    expect(await trending()).toEqual(trendingBefore);
    await load.stop();
    expect(load.bad).toEqual([]);
    expect(load.statuses.get(503) ?? 0).toBeGreaterThan(0);
    return settledMs;
  };

  beforeAll(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.startReady();
    await postgres.open();
    simulator = new PlatformSimulator({ seed: 5, accounts: POPULATION + 10, latencyMs: 30, apiKey: null });
    const simulatorPort = await simulator.listen(0);
    name = uniqueName('faults');
    await cloneTemplate(name);
    const config = testConfig(name, {
      DATABASE_URL: viaAddress(databaseUrl(name), '127.0.0.1', postgres.port),
      REDIS_URL: redis.url,
      PLATFORM_API_URL: `http://127.0.0.1:${simulatorPort}`,
      PLATFORM_MAX_RETRIES: '1',
      UPDATE_COOLDOWN_SECONDS: '0',
      UPDATE_ATTEMPTS: '3',
      UPDATE_LOCK_MS: '2000',
      UPDATE_STALLED_CHECK_MS: '1000',
      UPDATE_RECOVERY_INTERVAL_MS: '1000',
      VIEW_ROLLUP_INTERVAL_MS: '1000',
      // Viewers told apart by the address a trusted proxy forwards; the load's one key queues far past a default share.
      TRUST_PROXY_HOPS: '1',
      PLATFORM_ACCOUNT_HOURLY_PERCENT: '100',
    });
    app = await createHttpApp(config);
    await app.init();
    dataSource = app.get(DataSource);
    worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: false });
    await worker.init();
    const reconciler = worker.get(UpdateReconciler);
    const reconcile = reconciler.reconcile.bind(reconciler);
    reconciler.reconcile = async (atOnce) => {
      const fixed = await reconcile(atOnce);
      reconciled += fixed;
      return fixed;
    };
    await app.get(AccountAdminService).ensureAccount(POPULATION + 1);
    key = (await app.get(ApiKeyService).create({ accountId: POPULATION + 1, name: 'faults' })).secret;

    for (let accountId = 1; accountId <= POPULATION; accountId++)
      await http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    await until('the population refreshed', async () => ((await waiting()).length === 0 ? true : undefined), 60_000);
    // Account n is viewed by n + 1 visitors (addresses behind the trusted proxy), 2n + 1 times in all: each visitor
    // counts once.
    for (const accountId of VIEWED)
      for (let view = 0; view <= 2 * accountId; view++)
        await http()
          .post('/v1/account.getInfo')
          .set('Authorization', `Bearer ${key}`)
          .set('X-Forwarded-For', `198.51.100.${(view % (accountId + 1)) + 1}`)
          .send({ id: { accountId } })
          .expect(200);
    viewsBefore = Object.fromEntries(await Promise.all(VIEWED.map(async (accountId) => [accountId, await viewStats(accountId)])));
    expect(viewsBefore[3]).toMatchObject({ total24h: 4, total7d: 4, total30d: 4, unique24h: 4, unique7d: 4, unique30d: 4 });
    trendingBefore = await trending();
    expect(trendingBefore).toHaveLength(VIEWED.length);
    const expectedHits = VIEWED.reduce((sum, id) => sum + id + 1, 0);
    await until(
      'the views rolled up into PostgreSQL',
      async () => {
        const [{ hits }] = await dataSource.query(
          `SELECT coalesce(sum(hits), 0)::int AS hits FROM profile_view_buckets WHERE unit = 'd' AND account_id <= $1`,
          [VIEWED.length],
        );
        return hits === expectedHits ? true : undefined;
      },
      15_000,
    );
  }, 120_000);

  afterAll(async () => {
    await load?.stop();
    await worker?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await postgres.close();
    await redis?.stop();
    await simulator?.close();
    await dropDatabase(databaseUrl(name));
  });

  beforeEach(() => {
    load = new Load(http, key);
    load.start();
  });

  it('should recover from Redis killed and started again empty', async () => {
    await sleep(1_500);
    await queueInFlight();
    await redis.stop();
    await sleep(1_500);
    await redis.startReady();
    // Views of the new Redis, before or after the worker has put the stored ones back: counted on top of them.
    for (let view = 0; view < 2; view++)
      await until(
        'a view of the new Redis',
        async () =>
          (
            await http()
              .post('/v1/account.getInfo')
              .set('Authorization', `Bearer ${key}`)
              .set('X-Forwarded-For', '203.0.113.99')
              .send({ id: { accountId: 1 } })
          ).status === 200
            ? true
            : undefined,
        10_000,
      );
    // The same viewer twice: one view.
    viewsBefore[1] = addViews(viewsBefore[1] as Record<string, number>, 1, 1);
    trendingBefore = trendingBefore
      .map((row) => (row.accountId === 1 ? { ...row, uniqueViews: row.uniqueViews + 1, totalViews: row.totalViews + 1 } : row))
      .sort((a, b) => b.uniqueViews - a.uniqueViews || b.totalViews - a.totalViews || a.accountId - b.accountId);
    const settledMs = await expectRecovered('Redis came back empty');
    expect(settledMs).toBeLessThan(RECOVERY_MS);
    // The jobs went with Redis: the update under way was queued again by the reconciliation, not by a worker's boot.
    expect(reconciled).toBeGreaterThan(0);
  }, 120_000);

  it('should recover from PostgreSQL cut off for a few seconds', async () => {
    await sleep(1_500);
    await queueInFlight();
    await postgres.close();
    await sleep(4_000);
    await postgres.open();
    const settledMs = await expectRecovered('PostgreSQL came back');
    expect(settledMs).toBeLessThan(RECOVERY_MS);
  }, 120_000);
});
