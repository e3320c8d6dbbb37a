import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildDist, freePort, readApiEnv, run, stopApi } from './api-process';
import { hostConditions, numberFlag, report, textFlag } from './harness';
import { Measured, connections, once, sample, summarize } from './load';
import { fixtures, readCalls } from './read-calls';

/**
 * `npm run bench:cold-start -- --accounts 1000000 [--database NAME --seconds 20 --runs 3 --timeout-ms 10000]`
 *
 * What a client sees right after a restart, over a database seeded by `bench:scale` (`bench_scale_<N>`, reused as it
 * is: run bench:scale first). Each run starts the compiled API (as `npm start` does), polls `GET /health` every 50 ms
 * and, from the moment it first answers 200, sends `account.getInfo` at 16 in flight with no warm-up for --seconds:
 * p50/p99 over the whole window and over its first 5 s (the stretch a process still loading would spoil). Then the
 * same window of `GET /health` on the same process as the baseline. Also: milliseconds from spawn to the first 200
 * (`readyMs`; /health answers 503 until what the API serves from is loaded) and the API's RSS then.
 */
async function firstOk(port: number, started: number, child: { exitCode: number | null }): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
    const pool = connections(port, 1);
    const up = await once({ name: 'health', method: 'GET', path: '/health' }, '', 0, 1000, pool).catch(() => null);
    await pool.destroy();
    if (up?.status === 200) return performance.now() - started;
    if (performance.now() - started > 300_000) throw new Error('the API did not answer 200 within 300 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return line ? Number(line[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const accounts = numberFlag('accounts', 100_000);
  const seconds = numberFlag('seconds', 20);
  const runs = numberFlag('runs', 3);
  const timeoutMs = numberFlag('timeout-ms', 10_000);
  const name = textFlag('database') ?? `bench_scale_${accounts}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error('--database must be a lower-case PostgreSQL identifier');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const port = await freePort();
  const env = readApiEnv({ databaseUrl, redisPrefix: textFlag('redis-prefix') ?? name, port, seed: 1, accounts });
  const token = (await run('src/cli.ts', ['api-key', 'create', '--account', '1', '--name', 'bench-cold'], env)).trim().split('\n').pop()!;
  const calls = readCalls(accounts, await fixtures(databaseUrl));
  const getInfo = calls.find((call) => call.name === 'account.getInfo')!;
  const health = calls[0];
  await buildDist();
  const rows: Record<string, string>[] = [];
  const ms = (m: Measured) => `${m.p50.toFixed(1)} / ${m.p99.toFixed(1)}`;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const api = spawn(process.execPath, ['dist/src/main.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      const readyMs = await firstOk(port, started, api);
      const rssAtReady = rssMiB(api.pid!);
      // Account ids differ per run, so no run reads what an earlier one left in PostgreSQL's cache.
      const first = await sample(getInfo, port, token, i * 1_000_000, Number.MAX_SAFE_INTEGER, 5, timeoutMs);
      const rest = await sample(getInfo, port, token, i * 1_000_000 + 500_000, Number.MAX_SAFE_INTEGER, seconds - 5, timeoutMs);
      const baseline = summarize([await sample(health, port, token, 0, Number.MAX_SAFE_INTEGER, seconds, timeoutMs)]);
      const whole = summarize([first, rest]);
      rows.push({
        run: String(i + 1),
        readyMs: readyMs.toFixed(0),
        rssAtReadyMiB: rssAtReady.toFixed(0),
        'getInfo first 5 s p50/p99 ms': ms(summarize([first])),
        [`getInfo ${seconds} s p50/p99 ms`]: ms(whole),
        'getInfo ok/errors/timeouts': `${whole.ok}/${whole.errors}/${whole.timeouts}`,
        'getInfo per s': whole.perSecond.toFixed(0),
        'health p50/p99 ms': ms(baseline),
        'health per s': baseline.perSecond.toFixed(0),
        ...(whole.firstError ? { firstError: whole.firstError.slice(0, 100) } : {}),
      });
    } finally {
      await stopApi(api);
    }
  }
  report(`account.getInfo from the first 200 of /health over ${accounts} accounts (${name}; 16 in flight; ${hostConditions()})`, rows);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
