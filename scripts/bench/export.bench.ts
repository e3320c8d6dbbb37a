import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { buildDist, ensureSeeded, freePort, readApiEnv, run, settled, startApi, stopApi } from './api-process';
import { hostConditions, numberFlag, report, textFlag } from './harness';

/**
 * `npm run bench:export -- --accounts N [--database NAME --redis-prefix PREFIX --seed 1 --leaderboard xp --formats ndjson,csv
 *   --keep-derived --heap]`
 *
 * Exports a whole board (`leaderboard.export`, every position) from an API over a seeded population of N accounts and
 * reports rows/s and the API's resident memory (VmRSS of its process tree, from /proc, sampled every 50 ms): before the
 * export (settled), its peak during it, and after it; the issue's bar is peak − before < 50 MB at 1,000,000 accounts.
 * The database (`bench_scale_<N>` by default, as `bench:scale` seeds it; or --database, whose name is also the Redis
 * prefix unless --redis-prefix says otherwise) is seeded on the first run and reused by later ones, whose derived state
 * is rebuilt first unless --keep-derived. The client reads the body as fast as it can and keeps only counts. The API
 * runs alone in a child process, compiled to dist/ as `npm start` runs it (api-process.ts). --heap prints the API's
 * own memory figures (heapUsed, heapTotal, external, arrayBuffers, rss; its log line at the end of each export).
 */
const SAMPLE_MS = 50;

/** VmRSS in bytes of a process and its descendants (the HTTP children with API_PROCESSES > 1). */
function treeRss(pid: number): number {
  let total = 0;
  const pids = [pid];
  while (pids.length) {
    const next = pids.pop()!;
    try {
      const status = readFileSync(`/proc/${next}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+) kB/.exec(status);
      if (kb) total += Number(kb[1]) * 1024;
      const children = readFileSync(`/proc/${next}/task/${next}/children`, 'utf8').trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {
      // Gone between two reads.
    }
  }
  return total;
}

/** Samples the tree's RSS every SAMPLE_MS until stopped; resolves with the samples' maximum and the last one. */
function sampler(pid: number): { stop: () => { peak: number; last: number } } {
  let peak = treeRss(pid);
  let last = peak;
  const timer = setInterval(() => {
    last = treeRss(pid);
    if (last > peak) peak = last;
  }, SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return { peak, last };
    },
  };
}

/** The settled RSS: the median of a second of samples. */
async function steadyRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    samples.push(treeRss(pid));
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  return samples.sort((a, b) => a - b)[samples.length >> 1];
}

/** One export read to its end: rows (lines), bytes, seconds and the status. */
function exportOnce(port: number, token: string, body: object): Promise<{ status: number; lines: number; bytes: number; seconds: number }> {
  const data = JSON.stringify(body);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/leaderboard.export',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), Authorization: `Bearer ${token}` },
      },
      (res) => {
        let lines = 0;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, lines, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

async function main(): Promise<void> {
  const accounts = numberFlag('accounts', 100_000);
  const seed = numberFlag('seed', 1);
  const name = textFlag('database') ?? `bench_scale_${accounts}`;
  const leaderboard = textFlag('leaderboard') ?? 'xp';
  const formats = (textFlag('formats') ?? 'ndjson,csv').split(',');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error('--database must be a lower-case PostgreSQL identifier');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const port = await freePort();
  const env = readApiEnv({ databaseUrl, redisPrefix: textFlag('redis-prefix') ?? name, port, seed, accounts });
  env.API_PROCESSES = '1';
  env.EXPORTS_PER_MINUTE = '1000';
  const seedSeconds = await ensureSeeded(env, databaseUrl, accounts, seed);
  if (seedSeconds) process.stdout.write(`seeded ${accounts} accounts in ${seedSeconds.toFixed(0)} s\n`);
  else if (!process.argv.includes('--keep-derived')) await run('src/cli.ts', ['derived', 'rebuild'], env);
  const token = (await run('src/cli.ts', ['api-key', 'create', '--account', '1', '--name', 'bench-export'], env)).trim().split('\n').pop()!;
  await buildDist();
  // --heap: the API's own heap figures (process.memoryUsage) logged at the end of each export, printed as they come.
  const heap = process.argv.includes('--heap');
  if (heap) env.LOG_LEVEL = 'info';
  const onLine = heap
    ? (line: string) => {
        if (line.includes('leaderboard export ended')) process.stdout.write(`  api: ${line}\n`);
      }
    : undefined;
  const api: ChildProcess = await startApi(env, port, onLine);
  const rows: Record<string, string | number>[] = [];
  try {
    await settled(api);
    // A first small export: the code paths loaded and compiled before the baseline, as a running service has them.
    await exportOnce(port, token, { leaderboard, end: 2000, format: 'ndjson' });
    for (const format of formats) {
      const before = await steadyRss(api.pid!);
      const rss = sampler(api.pid!);
      const result = await exportOnce(port, token, { leaderboard, format });
      const during = rss.stop();
      const after = await steadyRss(api.pid!);
      if (result.status !== 200) throw new Error(`leaderboard.export answered ${result.status}`);
      const dataRows = result.lines - (format === 'csv' ? 1 : 0);
      rows.push({
        format,
        rows: dataRows,
        mb: mb(result.bytes),
        seconds: result.seconds.toFixed(1),
        rowsPerSecond: Math.round(dataRows / result.seconds),
        rssBeforeMb: mb(before),
        rssPeakMb: mb(during.peak),
        rssAfterMb: mb(after),
        peakOverBeforeMb: mb(during.peak - before),
        underBar: during.peak - before < 50 * 2 ** 20 ? 'yes' : 'NO',
      });
      process.stdout.write(`  exported ${leaderboard} as ${format}\n`);
    }
  } finally {
    await stopApi(api);
  }
  report(`leaderboard.export of the whole ${leaderboard} board over ${accounts} seeded accounts (${name}; ${hostConditions()})`, rows);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
