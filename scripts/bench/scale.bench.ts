import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { buildDist, cancelLeftovers, ensureSeeded, freePort, readApiEnv, run, settled, startApi, stopApi } from './api-process';
import { hostConditions, numberFlag, report, textFlag } from './harness';
import { CONCURRENCY, Call, Measured, Sample, THROUGHPUT_FACTOR, connections, measure, resultRow, sample, summarize } from './load';
import { CpuPerAnswer, metered, perAnswer, runIn } from './metering';
import { fixtures, readCalls, WARMUP_OFFSET } from './read-calls';

/**
 * `npm run bench:scale -- --accounts 100000 [--requests 2000 --seconds 20 --warmup-seconds 8 --run-in-seconds 30
 *   --timeout-ms 10000 --seed 1 --pairs 200]
 *   [--database NAME --redis-prefix PREFIX --only getInfo,getStats --keep-derived --cpu-prof DIR --pauses FILE --api-processes N]`
 *
 * Latency and throughput of the read operations over a seeded population of N accounts (`npm run seed`), each
 * next to a `GET /health` baseline measured in the same run (first and again last; ratios against the faster). The
 * baseline, `stats.getStats` and `account.getInfo`, whose throughput ratios are the bars, are measured over
 * THROUGHPUT_FACTOR times --requests (and --seconds). The
 * database `bench_scale_<N>` (or --database; the Redis prefix has the same name) is seeded on the first run and reused
 * by later ones, whose first step rebuilds the derived state (`npm run cli -- derived rebuild`). The API runs alone in
 * a child process
 * (compiled to dist/ first, as `npm start` runs it; no worker, no simulator); every operation is warmed up (one request per connection, then --warmup-seconds
 * of traffic, on other accounts than the measured ones) and then runs at a fixed concurrency of 16 for at most
 * --requests requests and --seconds seconds, each request given up after --timeout-ms (counted as a timeout). Traffic goes
 * to 127.0.0.1 only. `--database` measures another seeded database (its name is also the Redis prefix unless
 * `--redis-prefix` says otherwise); `--only` keeps the operations whose name contains one of the given words (the
 * `/health` baseline always runs); `--keep-derived` skips the rebuild (the code keeping it has not changed);
 * `--pairs` sets how many random pairs the friend path asks (200 by default, as the issue states it; more give
 * steadier figures on a noisy host); `--api-processes N` runs the API as N HTTP processes (API_PROCESSES, default 1 or
 * the environment's); `--pauses FILE` has the API append its event-loop delay and GC pauses to FILE every 5 s
 * (pause-monitor.js). Each row also gives the API's CPU time per answer (`apiCpuMsPerRequest`, from
 * /proc, summed over the API process and its children: one per core with API_PROCESSES), steadier than latency on
 * a shared machine. Each operation is also compared with `GET /health` measured in rounds alternating with its own
 * (`…VsAdjacentHealth`: throughput and API CPU per answer), since the host's speed drifts within a run; and with the
 * CPU PostgreSQL, Redis and the load generator spent per answer (`pgCpuMs`, `redisCpuMs`, `clientCpuMs`), since all of
 * them share the machine's cores with the API (`totalCpuVsAdjacentHealth`). Helpers: api-process.ts, load.ts.
 */
/** Rounds of an operation alternating with rounds of `GET /health` (its adjacent baseline). */
const INTERLEAVED_ROUNDS = 8;

/**
 * `call` and `GET /health` in alternating rounds (`rounds` of each, `total` requests of each in all, each on its own
 * connections kept across its rounds), so that both see the same stretches of a host whose speed drifts by tens of
 * percent within minutes: their ratio is then the call's cost, not the moment's. With the CPU per answer of each.
 */
async function interleaved(
  api: ChildProcess,
  call: Call,
  port: number,
  token: string,
  total: number,
  rounds: number,
  seconds: number,
  timeoutMs: number,
): Promise<{ m: Measured; cpu: CpuPerAnswer; health: Measured; healthCpu: CpuPerAnswer }> {
  const health: Call = { name: 'GET /health', method: 'GET', path: '/health' };
  const calls: Sample[] = [];
  const healths: Sample[] = [];
  const zero = (): CpuPerAnswer => ({ api: 0, postgres: 0, redis: 0, client: 0 });
  const [cpu, healthCpu] = [zero(), zero()];
  const per = Math.ceil(total / rounds);
  const pools = [health, call].map((c) => connections(port, c.concurrency ?? CONCURRENCY));
  for (let round = 0, from = 0; round < rounds && from < total; round++, from += per) {
    const size = Math.min(per, total - from);
    healths.push(await metered(api, healthCpu, () => sample(health, port, '', from, size, seconds / rounds, timeoutMs, pools[0])));
    calls.push(await metered(api, cpu, () => sample(call, port, token, from, size, seconds / rounds, timeoutMs, pools[1])));
  }
  await Promise.all(pools.map((pool) => pool.destroy()));
  const [m, h] = [summarize(calls), summarize(healths)];
  return { m, cpu: perAnswer(cpu, m), health: h, healthCpu: perAnswer(healthCpu, h) };
}

async function main(): Promise<void> {
  const accounts = numberFlag('accounts', 100_000);
  const total = numberFlag('requests', 2000);
  const warmupSeconds = numberFlag('warmup-seconds', 8);
  const runInSeconds = numberFlag('run-in-seconds', 30);
  const seconds = numberFlag('seconds', 20);
  const timeoutMs = numberFlag('timeout-ms', 10_000);
  const seed = numberFlag('seed', 1);
  const name = textFlag('database') ?? `bench_scale_${accounts}`;
  const only = textFlag('only')?.split(',');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error('--database must be a lower-case PostgreSQL identifier');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const port = await freePort();
  const env = readApiEnv({ databaseUrl, redisPrefix: textFlag('redis-prefix') ?? name, port, seed, accounts });
  // One API process by default, as `npm start` runs it; `--api-processes 2` measures one per core (node:cluster).
  const apiProcesses = numberFlag('api-processes', Number(env.API_PROCESSES ?? 1));
  env.API_PROCESSES = String(apiProcesses);
  const seedSeconds = await ensureSeeded(env, databaseUrl, accounts, seed);
  if (seedSeconds) process.stdout.write(`seeded ${accounts} accounts in ${seedSeconds.toFixed(0)} s\n`);
  else if (process.argv.includes('--keep-derived')) process.stdout.write(`reusing ${name} and its derived state as they are\n`);
  else {
    // The seeded rows are reused; derived state is rebuilt, since the code keeping it may have changed since the seed.
    const started = Date.now();
    await run('src/cli.ts', ['derived', 'rebuild'], env);
    process.stdout.write(`reusing ${name}; derived state rebuilt in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  const token = (await run('src/cli.ts', ['api-key', 'create', '--account', '1', '--name', 'bench-scale'], env)).trim().split('\n').pop()!;
  const session = (await run('src/cli.ts', ['session', 'create', '--account', '1'], env)).trim().split('\n').pop()!;
  const calls = readCalls(accounts, await fixtures(databaseUrl), numberFlag('pairs', 200), session);
  const selected = calls.filter((call, i) => i === 0 || !only || only.some((word) => call.name.includes(word)));
  // The baseline again at the end: measured first only, it could be slowed by what the API still does after booting
  // and flatter every ratio. The ratios are taken against the faster of the two.
  selected.push({ ...calls[0], name: 'GET /health (baseline, again at the end)' });
  await buildDist();
  let api = await startApi(env, port);
  await settled(api);
  await runIn(port, runInSeconds);
  let restarts = 0;
  const measured: { name: string; m: Measured; cpu: CpuPerAnswer; adjacent: { m: Measured; cpu: CpuPerAnswer } }[] = [];
  try {
    for (const call of selected) {
      // The machine is shared: if something stopped the API, say so and measure on with a new one (at most 3 times).
      if (api.exitCode !== null || api.signalCode !== null) {
        if (++restarts > 3) throw new Error('the API stopped more than 3 times');
        process.stdout.write(`  the API stopped (code ${api.exitCode}, signal ${api.signalCode}) before ${call.name}; restarting it\n`);
        api = await startApi(env, port);
        await settled(api);
      }
      // Warm-up, in two parts. One request per connection, given up to two minutes: a first read that builds state (a
      // lazy board, a changes snapshot: seconds at a million accounts) is what it pays for, not the measured requests
      // after it. Then --warmup-seconds of traffic: until V8 has optimized the operation's code, a request costs the API
      // twice the CPU (GET /health: 2.4 ms in its first thousand requests, 0.95 ms from the fourth), and the tail is
      // the compiler's; a service under steady load runs optimized code.
      await measure(call, port, token, CONCURRENCY, seconds, Math.max(timeoutMs, 120_000));
      const warmCall = { ...call, body: call.body && ((i: number) => call.body!(WARMUP_OFFSET + i)) };
      await measure(warmCall, port, token, Number.MAX_SAFE_INTEGER, warmupSeconds, timeoutMs);
      await cancelLeftovers(databaseUrl);
      // The host's speed drifts by tens of percent within minutes: `/health` is measured in rounds alternating with
      // the operation's, and the "adjacent" ratios compare the two.
      const factor = call.throughputBar ? THROUGHPUT_FACTOR : 1;
      const run = await interleaved(api, call, port, token, total * factor, INTERLEAVED_ROUNDS, seconds * factor, timeoutMs);
      await cancelLeftovers(databaseUrl);
      measured.push({ name: call.name, m: run.m, cpu: run.cpu, adjacent: { m: run.health, cpu: run.healthCpu } });
      process.stdout.write(`  measured ${call.name}\n`);
    }
  } finally {
    await stopApi(api);
  }
  const [first, last] = [measured[0], measured[measured.length - 1]];
  const baseline = last.m.perSecond > first.m.perSecond ? last.m : first.m;
  const fixed = (v: number) => (Number.isNaN(v) ? '?' : v.toFixed(2));
  const sum = (c: CpuPerAnswer) => c.api + c.postgres + c.redis + c.client;
  const rows = measured.map(({ name, m, cpu, adjacent }) => ({
    ...resultRow(name, m, baseline, timeoutMs),
    apiCpuMsPerRequest: fixed(cpu.api),
    pgCpuMs: fixed(cpu.postgres),
    redisCpuMs: fixed(cpu.redis),
    clientCpuMs: fixed(cpu.client),
    adjacentHealthPerSecond: adjacent.m.perSecond.toFixed(1),
    throughputVsAdjacentHealth: `${(m.perSecond / adjacent.m.perSecond).toFixed(3)}x`,
    apiCpuVsAdjacentHealth: `${fixed(cpu.api / adjacent.cpu.api)}x`,
    // All four share the machine's two cores: at saturation, throughput ratios follow these totals' inverse.
    totalCpuVsAdjacentHealth: `${fixed(sum(cpu) / sum(adjacent.cpu))}x`,
  }));
  report(
    `reads over ${accounts} seeded accounts (${name}; ${apiProcesses} API process${apiProcesses > 1 ? 'es' : ''}; concurrency ${CONCURRENCY}, ≤${total} requests / ≤${seconds} s per operation, timeout ${timeoutMs} ms; ${hostConditions()})`,
    rows,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
