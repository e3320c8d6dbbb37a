/**
 * Redis with every memory budget full: `npm run -s bench:redis-ceiling -- --database seed_1m [--redis-prefix P]`.
 *
 * Starts the API (alone, as bench:scale does) over a seeded database, then reads what is built on demand until each
 * budget is spent: the per-app and per-badge boards of the most owned apps and most held badges (global scope) until
 * their entries pass `RANK_LAZY_BUDGET`, and `leaderboard.getChanges` over every column and window kept in
 * snapshots (7d, 30d, 90d, 1y) past `CHANGES_SNAPSHOT_BUDGET_MB`. Prints Redis's `used_memory` before and after,
 * with what each budget holds; run it on a Redis holding this prefix only. Reads only; the derived state it builds
 * is dropped by the next rebuild (or evicted by the budgets themselves).
 */
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { Client } from 'pg';
import { freePort, run, startApi, stopApi, buildDist } from './api-process';
import { connections, once } from './load';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    'redis-prefix': { type: 'string' },
    'redis-url': { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    boards: { type: 'string', default: '40' },
  },
});

const CHANGE_COLUMNS = ['xp', 'badges', 'apps', 'playtime', 'normal_badges', 'foil_badges'];
const SNAPSHOT_WINDOWS = ['7d', '30d', '90d', '1y'];

async function usedMb(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]) / 1_048_576;
}

async function main(): Promise<void> {
  const name = values.database;
  if (!name) throw new Error('--database is required (a seeded database: npm run seed)');
  const prefix = values['redis-prefix'] ?? name;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const redis = new Redis(values['redis-url']!);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const apps = (await db.query(`SELECT app_id FROM app_owner_counts ORDER BY owners DESC LIMIT $1`, [Number(values.boards)])).rows;
  const badges = (
    await db.query(
      `SELECT b.app_id FROM badge_holder_stats s JOIN badges b ON b.id = s.badge_id
        WHERE NOT b.is_foil AND b.app_id IS NOT NULL ORDER BY s.holders DESC LIMIT $1`,
      [Number(values.boards)],
    )
  ).rows;
  await db.end();
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: prefix,
    PORT: String(port),
    LOG_LEVEL: 'error',
    PLATFORM_API_URL: 'http://127.0.0.1:9',
  };
  const token = (await run('src/cli.ts', ['api-key', 'create', '--account', '1', '--name', 'bench-ceiling'], env))
    .trim()
    .split('\n')
    .pop()!;
  const before = await usedMb(redis);
  await buildDist();
  const api = await startApi(env, port);
  const pool = connections(port, 1);
  const read = async (path: string, body: unknown) => {
    const res = await once({ name: path, method: 'POST', path, body: () => body }, token, 0, 300_000, pool);
    if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(body)}: ${res.status}`);
  };
  try {
    for (const { app_id: appId } of apps)
      await read('/v1/leaderboard.getAccountLeaderboard', { leaderboard: 'app_playtime', app: { appId }, start: 1, end: 10 });
    for (const { app_id: id } of badges)
      await read('/v1/leaderboard.getAccountLeaderboard', {
        leaderboard: 'badge_highest_level',
        badge: { id, isFoil: false },
        start: 1,
        end: 10,
      });
    for (const leaderboard of CHANGE_COLUMNS)
      for (const window of SNAPSHOT_WINDOWS)
        await read('/v1/leaderboard.getChanges', { leaderboard, window, metric: 'score', direction: 'improvements' });
  } finally {
    await pool.destroy();
    await stopApi(api);
  }
  const lazy = await redis.hgetall((await redis.keys(`${prefix}:ranks:v*:lz:size`))[0] ?? 'none');
  const snapshots = await redis.hgetall((await redis.keys(`${prefix}:changes:v*:snap-bytes`))[0] ?? 'none');
  const entries = Object.values(lazy).reduce((sum, n) => sum + Number(n), 0);
  const bytes = Object.values(snapshots).reduce((sum, n) => sum + Number(n), 0);
  const after = await usedMb(redis);
  process.stdout.write(
    `redis used_memory: ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB with the budgets full ` +
      `(lazy boards: ${Object.keys(lazy).length} holding ${entries} entries; ` +
      `changes snapshots: ${Object.keys(snapshots).length} holding ${(bytes / 1_048_576).toFixed(1)} MB)\n`,
  );
  await redis.quit();
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
