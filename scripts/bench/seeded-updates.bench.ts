import 'reflect-metadata';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { loadConfig } from '../../src/config/app-config';
import { PlatformClient } from '../../src/platform/client/platform-client';
import { PlatformSimulator } from '../../src/platform/simulator';
import { AccountUpdateQueueService } from '../../src/refresh/account-update-queue.service';
import { RankKeys } from '../../src/ranks/rank-keys';
import { memberOf } from '../../src/ranks/rank-scopes';
import { numberFlag, readAsTheWorker, report, startWorker } from './harness';

/**
 * `npm run bench:seeded-updates -- --database seed_1m --accounts 1000000 [--updates 100 --concurrency 4]`: how long
 * one account update takes in a seeded population, and when its new rank shows.
 *
 * The worker runs against the seeded database and a simulator of the same seed and size (so a seeded account
 * changes only by what moved in the simulator since the seed), with the usual cooldown lifted. The same random
 * seeded accounts are first read from the platform alone (the baseline: the same reads, no queue, no database),
 * then updated through queue → worker → PostgreSQL → rank engine. Per run: its own duration (started → finished,
 * from `account_updates`), and whether the account's score on the global xp board equals its stored xp right
 * when the run reads `completed` (the updater places ranks before announcing completion). Run at 100k and 1M and
 * compare the ratios. It writes the updates into the seeded database, as the service would.
 */
async function main(): Promise<void> {
  const database = process.argv[process.argv.indexOf('--database') + 1];
  if (!process.argv.includes('--database') || !/^[a-z_][a-z0-9_]{0,62}$/.test(database)) throw new Error('--database NAME is required');
  const prefixIndex = process.argv.indexOf('--redis-prefix');
  const prefix = prefixIndex >= 0 ? process.argv[prefixIndex + 1] : database;
  const accounts = numberFlag('accounts', 100_000);
  const updates = numberFlag('updates', 100);
  const concurrency = numberFlag('concurrency', 4);
  const seed = numberFlag('seed', 1);
  const simulator = new PlatformSimulator({ seed, accounts, apiKey: null });
  const port = await simulator.listen(0);
  const config = loadConfig({
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    REDIS_PREFIX: prefix,
    PLATFORM_API_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'error',
    UPDATE_COOLDOWN_SECONDS: '0',
    WORKER_CONCURRENCY: String(concurrency),
    SIMULATOR_SEED: String(seed),
    SIMULATOR_ACCOUNTS: String(accounts),
  });
  JsonLogger.setLevel(config.logLevel);
  // Distinct accounts spread over the whole id range (a fixed stride, so runs at any size pick comparable ones).
  const ids = Array.from({ length: updates }, (_, i) => 1 + ((i * 7_919 * 127 + 13) % accounts));
  const worker = await startWorker(config);
  const redis = new Redis(config.redisUrl);
  try {
    const client = worker.get(PlatformClient);
    const dataSource = worker.get(DataSource);
    const fetchSeconds = await readAsTheWorker(client, ids, concurrency);

    const queue = worker.get(AccountUpdateQueueService);
    const since = new Date();
    const started = performance.now();
    for (const accountId of ids) await queue.queueTrusted({ id: { accountId } }, true);
    const keys = new RankKeys(config);
    const pending = new Set(ids);
    // Per account: from the poll that first reads its row `completed` until its global xp score equals the stored
    // xp (the writer commits the row, then the updater places ranks and announces completion).
    const lags: number[] = [];
    const placing = new Map<number, { seenAt: number; expected: string | null }>();
    let neverPlaced = 0;
    while (pending.size || placing.size) {
      const rows: { account_id: number; xp: number; hidden: boolean }[] = pending.size
        ? await dataSource.query(
            `SELECT a.account_id, a.xp, EXISTS (SELECT 1 FROM account_settings s WHERE s.account_id = a.account_id AND s.hidden) AS hidden
               FROM accounts a WHERE a.account_id = ANY($1) AND a.last_queue_status = 'completed'`,
            [[...pending]],
          )
        : [];
      for (const row of rows) {
        pending.delete(row.account_id);
        placing.set(row.account_id, { seenAt: performance.now(), expected: row.hidden || row.xp <= 0 ? null : String(row.xp) });
      }
      const version = await redis.get(keys.version);
      for (const [accountId, { seenAt, expected }] of placing) {
        const score = version ? await redis.zscore(keys.board(version, 'xp', 'g'), memberOf(accountId)) : null;
        const waited = performance.now() - seenAt;
        if (score === expected) lags.push(waited);
        else if (waited < 60_000) continue;
        else neverPlaced++;
        placing.delete(accountId);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    lags.sort((a, b) => a - b);
    const pipelineSeconds = (performance.now() - started) / 1000;
    const [runs] = await dataSource.query(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, count(*)::int AS n
         FROM (SELECT extract(epoch FROM finished_at - started_at) * 1000 AS ms FROM account_updates
                WHERE account_id = ANY($1) AND status = 'completed' AND queued_at >= $2) r`,
      [ids, since],
    );
    report(`account updates in ${database} (${accounts} accounts; ${updates} seeded accounts, concurrency ${concurrency})`, [
      { case: 'baseline: platform reads only', seconds: fetchSeconds.toFixed(2), perSecond: (updates / fetchSeconds).toFixed(1) },
      {
        case: 'queue → worker → PostgreSQL → ranks',
        seconds: pipelineSeconds.toFixed(2),
        perSecond: (updates / pipelineSeconds).toFixed(1),
        ratio: `${(pipelineSeconds / fetchSeconds).toFixed(2)}x`,
      },
      { case: 'one run, started → finished', runs: runs.n, p50ms: Number(runs.p50).toFixed(1), p99ms: Number(runs.p99).toFixed(1) },
      {
        case: 'new xp rank shows, after the row reads completed',
        placed: lags.length,
        p50ms: (lags[Math.floor(lags.length / 2)] ?? 0).toFixed(1),
        maxMs: (lags[lags.length - 1] ?? 0).toFixed(1),
        notWithin60s: neverPlaced,
      },
    ]);
  } finally {
    redis.disconnect();
    await worker.close();
    await simulator.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
