import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { buildDist, cancelLeftovers, freePort, readApiEnv, run, settled, startApi, stopApi } from './api-process';
import { hostConditions, numberFlag, report, textFlag } from './harness';
import { CONCURRENCY, Call, Sample, connections, measure, sample, summarize } from './load';
import { CpuPerAnswer, metered, perAnswer, runIn } from './metering';
import { fixtures, readCalls, WARMUP_OFFSET } from './read-calls';

/**
 * `npm run bench:flatness -- --small seed_100k_c:100000 --large seed_1m_c:1000000
 *   [--only getInfo,listBadges --requests 2000 --seconds 20 --rounds 8 --warmup-seconds 8 --run-in-seconds 30
 *    --timeout-ms 10000 --seed 1 --pairs 200]`
 *
 * Is a read as fast over the large population as over the small one? bench:scale answers with two runs minutes apart,
 * and on a shared 2-core host the machine's speed drifts by tens of percent between them (the same `/health` served
 * 1,100/s in one run and 1,700/s in the next), which moves every p50 ratio taken across runs. Here one API serves each
 * population (two seeded databases, `npm run seed`, named `database:accounts`; their names are the Redis prefixes, as
 * bench:scale has them), both running at once, and every operation is measured against both in alternating rounds
 * (small, large, small, …; `--rounds` of each, each at a concurrency of 16 on connections kept across its rounds), so
 * both see the same stretches of the host. Each row gives both p50/p99, the ratio of the p50s (the bar: at
 * most 1.5), of the throughputs, and of the CPU per answer of the API and of the whole machine (API, PostgreSQL,
 * Redis, this load generator). The derived state is used as it is (run `npm run cli -- derived rebuild` first when
 * the code keeping it changed). `GET /health` is measured as an operation too: its ratio shows what equal work gives.
 * `--pairs` sets how many random pairs the friend path asks, as in bench:scale (the first 200 are the same pairs).
 */
interface Population {
  name: string;
  accounts: number;
  api: ChildProcess;
  port: number;
  token: string;
  databaseUrl: string;
  calls: Call[];
}

function populationFlag(flag: string): { name: string; accounts: number } {
  const [name, accounts] = (textFlag(flag) ?? '').split(':');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name ?? '') || !Number(accounts)) {
    throw new Error(`--${flag} must be <database>:<accounts>, a seeded database (npm run seed) and its population`);
  }
  return { name, accounts: Number(accounts) };
}

async function seededAccounts(databaseUrl: string): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE updated_at IS NOT NULL')).rows[0].n;
  } finally {
    await db.end();
  }
}

async function start(flag: string, seed: number): Promise<Population> {
  const { name, accounts } = populationFlag(flag);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const seeded = await seededAccounts(databaseUrl);
  if (seeded !== accounts) throw new Error(`${name} holds ${seeded} seeded accounts, not ${accounts}: seed it first (npm run seed)`);
  const port = await freePort();
  const env = readApiEnv({ databaseUrl, redisPrefix: name, port, seed, accounts });
  const token = (await run('src/cli.ts', ['api-key', 'create', '--account', '1', '--name', 'bench-flatness'], env))
    .trim()
    .split('\n')
    .pop()!;
  const calls = readCalls(accounts, await fixtures(databaseUrl), numberFlag('pairs', 200));
  const api = await startApi(env, port);
  return { name, accounts, api, port, token, databaseUrl, calls };
}

const zero = (): CpuPerAnswer => ({ api: 0, postgres: 0, redis: 0, client: 0 });
const machine = (c: CpuPerAnswer) => c.api + c.postgres + c.redis + c.client;

async function main(): Promise<void> {
  const total = numberFlag('requests', 2000);
  const seconds = numberFlag('seconds', 20);
  const rounds = numberFlag('rounds', 8);
  const warmupSeconds = numberFlag('warmup-seconds', 8);
  const timeoutMs = numberFlag('timeout-ms', 10_000);
  const only = textFlag('only')?.split(',');
  await buildDist();
  const small = await start('small', numberFlag('seed', 1));
  const large = await start('large', numberFlag('seed', 1));
  const rows: Record<string, string>[] = [];
  try {
    for (const population of [small, large]) await settled(population.api);
    await Promise.all([small, large].map((p) => runIn(p.port, numberFlag('run-in-seconds', 30))));
    for (let index = 0; index < large.calls.length; index++) {
      const pair = [small, large].map((p) => ({ p, call: p.calls[index] }));
      if (only && index > 0 && !only.some((word) => pair[1].call.name.includes(word))) continue;
      // Warm-up as bench:scale does it: one request per connection (building lazy state), then steady traffic on
      // other accounts than the measured ones.
      for (const { p, call } of pair) {
        await measure(call, p.port, p.token, CONCURRENCY, seconds, Math.max(timeoutMs, 120_000));
        const warm = { ...call, body: call.body && ((i: number) => call.body!(WARMUP_OFFSET + i)) };
        await measure(warm, p.port, p.token, Number.MAX_SAFE_INTEGER, warmupSeconds, timeoutMs);
        await cancelLeftovers(p.databaseUrl);
      }
      const per = Math.ceil(total / rounds);
      const samples: Sample[][] = [[], []];
      const cpu = [zero(), zero()];
      const pools = pair.map(({ p, call }) => connections(p.port, call.concurrency ?? CONCURRENCY));
      for (let round = 0, from = 0; round < rounds && from < total; round++, from += per) {
        const size = Math.min(per, total - from);
        for (const [i, { p, call }] of pair.entries()) {
          const run = () => sample(call, p.port, p.token, from, size, seconds / rounds, timeoutMs, pools[i]);
          samples[i].push(await metered(p.api, cpu[i], run));
        }
      }
      await Promise.all(pools.map((pool) => pool.destroy()));
      const [s, l] = samples.map((stretch) => summarize(stretch));
      const [cs, cl] = [perAnswer(cpu[0], s), perAnswer(cpu[1], l)];
      rows.push({
        operation: pair[1].call.name,
        ok: `${s.ok}/${l.ok}`,
        errors: String(s.errors + l.errors + s.timeouts + l.timeouts),
        smallP50P99: `${s.p50.toFixed(1)}/${s.p99.toFixed(1)}`,
        largeP50P99: `${l.p50.toFixed(1)}/${l.p99.toFixed(1)}`,
        p50LargeVsSmall: `${(l.p50 / s.p50).toFixed(2)}x`,
        p99LargeVsSmall: `${(l.p99 / s.p99).toFixed(2)}x`,
        throughputLargeVsSmall: `${(l.perSecond / s.perSecond).toFixed(3)}x`,
        apiCpuLargeVsSmall: `${(cl.api / cs.api).toFixed(2)}x`,
        machineCpuMs: `${machine(cs).toFixed(2)}/${machine(cl).toFixed(2)}`,
      });
      process.stdout.write(`  measured ${pair[1].call.name}\n`);
    }
  } finally {
    await Promise.all([small, large].map((p) => stopApi(p.api)));
  }
  report(
    `reads over ${large.accounts} (${large.name}) against ${small.accounts} (${small.name}) accounts, alternating rounds (concurrency ${CONCURRENCY}, ≤${total} requests / ≤${seconds} s per operation and population, ${rounds} rounds; ${hostConditions()})`,
    rows,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
