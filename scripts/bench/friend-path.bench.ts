import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { FriendGraphService } from '../../src/accounts/friend-graph.service';
import { MAX_FRIENDSHIPS_READ, MAX_PATH_DEPTH } from '../../src/accounts/friend-path.service';
import { FriendAdjacency } from '../../src/accounts/friends/friend-adjacency';
import { copyFriendRows } from '../../src/accounts/friends/friend-rows-copy';
import { findFriendPaths, NeighbourReader } from '../../src/accounts/friends/friend-search';
import { loadConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { dropDatabase } from '../../src/database/ensure-database';
import { prepareDatabase } from '../../src/database/prepare-database';
import { Universe } from '../../src/platform/simulator/universe/universe';
import { CopyLoad, dropStructures, restoreStructures, secondaryStructures } from '../../src/seed/bulk-load';
import { numberFlag, report } from './harness';
import { cancelLeftovers, freePort, run, startApi, stopApi, buildDist } from './api-process';
import { Call, Measured, ids, measure, resultRow } from './load';

/**
 * `npm run bench:friend-path -- --accounts 1000000 [--pairs 200 --timeout-ms 10000 --seed 1 --drop]`
 *
 * Latency and throughput of `account.findFriendPath` over random pairs of accounts (the pairs of `bench:scale`) at
 * concurrency 16, next to a `GET /health` baseline measured in the same run, then what the answers were (distances,
 * none found) from one pass in sequence.
 *
 * The population is only what the search reads: the database `bench_friend_path_<N>` holds N account rows (one
 * `generate_series`) and the friend lists the update worker would store for the simulator's accounts of the same
 * seed — the simulator's own friend graph (Chung-Lu over Pareto weights, average 8 friends, hubs capped at 500),
 * without the lists of private accounts (their friendships are known only from their friends' lists), streamed in
 * with one COPY, indexes and keys dropped for the load and restored after: a million accounts in ~80 s here
 * instead of the full seed's hour. It is reused by later runs (a table comment marks a finished load);
 * `--drop` drops it and its Redis prefix at the end.
 */
const COMPLETE = (seed: number, accounts: number) => `friend-path bench: seed ${seed}, ${accounts} accounts`;

async function main(): Promise<void> {
  const accounts = numberFlag('accounts', 100_000);
  const pairCount = numberFlag('pairs', 200);
  const timeoutMs = numberFlag('timeout-ms', 10_000);
  const seed = numberFlag('seed', 1);
  const name = `bench_friend_path_${accounts}`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: name,
    PORT: String(port),
    // Info, for the graph's "loaded" line (the bench waits for it); request lines are read and dropped.
    LOG_LEVEL: 'info',
    SIMULATOR_SEED: String(seed),
    SIMULATOR_ACCOUNTS: String(accounts),
    // No platform is needed for reads; an explicit URL also keeps the API from embedding a simulator.
    PLATFORM_API_URL: 'http://127.0.0.1:9',
    API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const built = await ensureGraph(databaseUrl, accounts, seed);
  process.stdout.write(built ? `${built}\n` : `reusing ${name}\n`);
  const token = (await run('src/cli.ts', ['api-key', 'create', '--account', '1', '--name', 'bench-friend-path'], env))
    .trim()
    .split('\n')
    .pop()!;
  const pairs = ids(2 * pairCount, accounts, 11);
  const body = (i: number) => ({ from: { id: { accountId: pairs[2 * i] } }, to: { id: { accountId: pairs[2 * i + 1] } } });
  const calls: Call[] = [
    { name: 'GET /health (baseline)', method: 'GET', path: '/health' },
    { name: `account.findFriendPath (${pairCount} pairs)`, method: 'POST', path: '/v1/account.findFriendPath', body },
  ];
  let onLoaded: (line: Record<string, unknown>) => void = () => undefined;
  const loaded = new Promise<Record<string, unknown>>((resolve) => (onLoaded = resolve));
  await buildDist();
  const api = await startApi(env, port, (line) => {
    if (line.includes('"friend graph loaded"')) onLoaded(JSON.parse(line) as Record<string, unknown>);
  });
  const rows: Record<string, string>[] = [];
  const answers = new Map<string, number>();
  let graph: Record<string, unknown>;
  try {
    graph = await Promise.race([
      loaded,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no graph within 10 min')), 600_000).unref()),
    ]);
    let baseline: Measured | null = null;
    for (const call of calls) {
      await measure(call, port, token, 16, 20, timeoutMs); // warm-up: one request per connection
      const cpuBefore = cpuMs(api.pid!);
      const m = await measure(call, port, token, call.body ? pairCount : 400, 60, timeoutMs);
      const cpu = (cpuMs(api.pid!) - cpuBefore) / Math.max(1, m.ok);
      await cancelLeftovers(databaseUrl);
      baseline ??= m;
      // The API's own CPU per answer: steadier than latency on a shared machine (others' load stretches the waits).
      rows.push({ ...resultRow(call.name, m, baseline, timeoutMs), apiCpuMsPerRequest: Number.isNaN(cpu) ? '?' : cpu.toFixed(2) });
    }
    // What the answers were, one request at a time (also a check that every pair is answered).
    for (let i = 0; i < pairCount; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/v1/account.findFriendPath`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body(i)),
        signal: AbortSignal.timeout(timeoutMs),
      }).catch(() => null);
      const answer = res?.ok ? ((await res.json()) as { found: boolean; paths: { distance: number }[] }) : null;
      const key = !res ? 'timeout' : !answer ? `status ${res.status}` : answer.found ? `distance ${answer.paths[0].distance}` : 'not found';
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
  } finally {
    await stopApi(api);
  }
  const { accounts: nodes, friendships, megabytes, ms } = graph as Record<string, number>;
  report(
    `account.findFriendPath over ${accounts} accounts (${name}; concurrency 16; graph in memory after ${(ms / 1000).toFixed(1)} s: ` +
      `${nodes} accounts, ${friendships} friendships, ${megabytes} MB)`,
    rows,
  );
  report('answers', [Object.fromEntries([...answers].sort(([a], [b]) => a.localeCompare(b)))]);
  report(`the search alone, same pairs, one at a time, no HTTP (in this process)`, await searchAlone(databaseUrl, pairs, pairCount));
  if (process.argv.includes('--drop')) {
    await dropDatabase(databaseUrl);
    await dropRedisPrefix(name);
    process.stdout.write(`dropped ${name} and its Redis prefix\n`);
  }
}

/**
 * The bidirectional search itself over the two readers the API has: PostgreSQL (one query per level, what serves
 * while the graph loads) and the graph in memory — the evidence for keeping the graph in memory.
 */
async function searchAlone(databaseUrl: string, pairs: number[], count: number): Promise<Record<string, string>[]> {
  const dataSource = new DataSource(dataSourceOptions({ databaseUrl }));
  await dataSource.initialize();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const loadStarted = Date.now();
    const graph = await FriendAdjacency.fromRows(await copyFriendRows(client));
    const loadMs = Date.now() - loadStarted;
    const readers: [string, NeighbourReader][] = [
      ['postgres (one query per level)', new FriendGraphService(dataSource).neighbours],
      [`memory (loaded in ${loadMs} ms)`, graph.read],
    ];
    const rows: Record<string, string>[] = [];
    for (const [storage, reader] of readers) {
      const latencies: number[] = [];
      const levels: number[] = [];
      const edges: number[] = [];
      const started = performance.now();
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        const result = await findFriendPaths(pairs[2 * i], pairs[2 * i + 1], BOUNDS, reader);
        latencies.push(performance.now() - t);
        levels.push(result.levels);
        edges.push(result.edges);
      }
      const seconds = (performance.now() - started) / 1000;
      rows.push({
        storage: storage.padEnd(34),
        p50ms: quantile(latencies, 0.5).toFixed(2).padStart(7),
        p99ms: quantile(latencies, 0.99).toFixed(2).padStart(7),
        perSecond: (count / seconds).toFixed(0).padStart(6),
        levelsMax: `${quantile(levels, 1)}`,
        friendshipsReadP50: `${quantile(edges, 0.5)}`,
        friendshipsReadP99: `${quantile(edges, 0.99)}`,
        friendshipsReadMax: `${quantile(edges, 1)}`,
      });
    }
    return rows;
  } finally {
    await client.end();
    await dataSource.destroy();
  }
}

/** CPU time (user + system) a process has used, from /proc (NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

const BOUNDS = { exclude: new Set<number>(), maxDepth: MAX_PATH_DEPTH, maxEdges: MAX_FRIENDSHIPS_READ, maxPaths: 10 };

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Builds the population unless a finished one is there; returns what building took, or null when reused. */
async function ensureGraph(databaseUrl: string, accounts: number, seed: number): Promise<string | null> {
  const config = loadConfig({ DATABASE_URL: databaseUrl });
  const admin = new Client({ connectionString: databaseUrl.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseUrl.split('/').pop()])).rowCount;
  await admin.end();
  if (exists) {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const marker = await db
      .query<{ comment: string | null }>(`SELECT obj_description('account_friends'::regclass, 'pg_class') AS comment`)
      .then((r) => r.rows[0].comment)
      .catch(() => null);
    await db.end();
    if (marker === COMPLETE(seed, accounts)) return null;
    await dropDatabase(databaseUrl);
  }
  const started = Date.now();
  const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
  await prepareDatabase(config);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const tables = ['accounts', 'account_friends'];
    const structures = await secondaryStructures(db, tables);
    await dropStructures(db, structures);
    let phase = Date.now();
    await db.query(`INSERT INTO accounts (account_id, name) SELECT g, 'account ' || g FROM generate_series(1, $1::int) g`, [accounts]);
    const accountSeconds = seconds(phase);
    phase = Date.now();
    const universe = new Universe({ seed, accounts });
    const tick = universe.tickAt(Date.now());
    const load = await CopyLoad.open(databaseUrl, [
      { table: 'account_friends', columns: ['account_id', 'friend_account_id'], freeze: false },
    ]);
    let rows = 0;
    try {
      const encoder = new TextEncoder();
      for (let first = 1; first <= accounts; first += 20_000) {
        const lines: string[] = [];
        for (let accountId = first; accountId < first + 20_000 && accountId <= accounts; accountId++) {
          // A private account's own list is never read; its friendships show only on its friends' lists.
          if (universe.isPrivate(accountId)) continue;
          for (const friend of universe.friendIds(accountId, tick)) lines.push(`${accountId}\t${friend}\n`);
        }
        rows += lines.length;
        await load.write('account_friends', encoder.encode(lines.join('')));
      }
      await load.finish();
    } catch (error) {
      await load.abort();
      throw error;
    }
    const friendSeconds = seconds(phase);
    phase = Date.now();
    await restoreStructures([db], structures, tables);
    await db.query('VACUUM (ANALYZE) accounts, account_friends');
    await db.query(`COMMENT ON TABLE account_friends IS '${COMPLETE(seed, accounts)}'`);
    return (
      `built ${databaseUrl.split('/').pop()} in ${seconds(started)} s: ${accounts} accounts (${accountSeconds} s), ` +
      `${rows} friend rows (${friendSeconds} s), indexes, keys and vacuum (${seconds(phase)} s)`
    );
  } finally {
    await db.end();
  }
}

async function dropRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
