import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { buildDist, cancelLeftovers, freePort, readApiEnv, run, settled, startApi, stopApi } from './api-process';
import { hostConditions, numberFlag, report, textFlag } from './harness';
import { CONCURRENCY, Measured, Sample, connections, measure, sample, summarize } from './load';
import { CpuPerAnswer, metered, perAnswer, runIn } from './metering';
import { fixtures, readCalls, WARMUP_OFFSET } from './read-calls';

/**
 * `npm run bench:side-by-side -- --trees new=.,old=/work/wt-old:old_prefix --database bench_scale_100000 --accounts 100000
 *   [--only getInfo,getAccountLeaderboard --rounds 8 --requests 2000 --seconds 20 --warmup-seconds 8
 *    --run-in-seconds 30 --timeout-ms 10000 --seed 1 --pairs 200 --rebuild-derived --skip-build]`
 *
 * Two or more builds of the service side by side: each tree (`label=dir[:redisPrefix]`, the first is the reference)
 * is compiled (its dist/, as `npm start` runs it) and serves as its own API process, all of them at once over the same
 * seeded database, and every read of bench:scale (`--only` keeps those whose name contains one of the words; `GET
 * /health` always runs) is measured against each tree in rounds alternating between them (A, B, A, B, …; `--rounds`
 * of each, 16 in flight, on connections kept across the rounds). A shared 2-core host drifts by tens of percent
 * within minutes; alternating rounds let every tree see the same stretches of it, so the ratios are the builds', not
 * the moment's. A tree given its own Redis prefix keeps its own derived state (`--rebuild-derived` rebuilds it with
 * that tree's own code first: a tree of another commit may keep it differently); by default all share the
 * database's name as prefix. Each row gives every tree's p50 / p99 / answers per second and API CPU per answer, and
 * the ratios of each tree against the first. `API_NODE_FLAGS_<label>` (environment) starts that tree's API with those
 * Node/V8 options (`API_NODE_FLAGS` for all, api-process.ts). bench:handwritten runs it against variant trees
 * (handwritten.bench.ts). Each API holds up to 20 PostgreSQL connections: on a server with the default 100 shared with
 * other work, three trees at a time is the most that leaves room.
 */
export interface Tree {
  label: string;
  root: string;
  redisPrefix?: string;
}

interface Serving extends Tree {
  api: ChildProcess;
  port: number;
  token: string;
}

export interface SideBySideOptions {
  trees: Tree[];
  database: string;
  accounts: number;
  only?: string[];
  rebuildDerived?: boolean;
}

/** `label=dir[:prefix],…` */
export function treesFlag(text: string): Tree[] {
  return text.split(',').map((entry) => {
    const [label, rest] = entry.split('=');
    const [dir, redisPrefix] = (rest ?? '').split(':');
    if (!label || !dir) throw new Error('--trees takes label=dir[:redisPrefix],…');
    return { label, root: resolve(dir), redisPrefix };
  });
}

const zero = (): CpuPerAnswer => ({ api: 0, postgres: 0, redis: 0, client: 0 });

export async function sideBySide(o: SideBySideOptions): Promise<Record<string, string>[]> {
  const total = numberFlag('requests', 2000);
  const seconds = numberFlag('seconds', 20);
  const rounds = numberFlag('rounds', 8);
  const warmupSeconds = numberFlag('warmup-seconds', 8);
  const timeoutMs = numberFlag('timeout-ms', 10_000);
  const seed = numberFlag('seed', 1);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${o.database}`;
  const calls = readCalls(o.accounts, await fixtures(databaseUrl), numberFlag('pairs', 200));
  const selected = calls.filter((call, i) => i === 0 || !o.only || o.only.some((word) => call.name.includes(word)));
  // --skip-build: the trees' dist/ are already built from what they hold (a rerun).
  for (const tree of process.argv.includes('--skip-build') ? [] : o.trees) {
    process.stdout.write(`building ${tree.label} (${tree.root})\n`);
    await buildDist(tree.root);
  }
  const serving: Serving[] = [];
  const rows: Record<string, string>[] = [];
  try {
    // All trees boot at once (their CLI steps too: ts-node compiles each one's sources, a minute on a busy host).
    const started = await Promise.allSettled(
      o.trees.map(async (tree): Promise<Serving> => {
        const port = await freePort();
        const env = readApiEnv({ databaseUrl, redisPrefix: tree.redisPrefix ?? o.database, port, seed, accounts: o.accounts });
        // API_NODE_FLAGS_<label>: Node/V8 options for that tree's API only (a tree measured against itself with them).
        const nodeFlags = process.env[`API_NODE_FLAGS_${tree.label}`];
        if (nodeFlags !== undefined) env.API_NODE_FLAGS = nodeFlags;
        if (o.rebuildDerived) {
          const since = Date.now();
          await run('src/cli.ts', ['derived', 'rebuild'], env, tree.root);
          process.stdout.write(`${tree.label}: derived state rebuilt in ${((Date.now() - since) / 1000).toFixed(0)} s\n`);
        }
        const created = await run(
          'src/cli.ts',
          ['api-key', 'create', '--account', '1', '--name', `side-by-side-${tree.label}`],
          env,
          tree.root,
        );
        const api = await startApi(env, port, undefined, tree.root);
        return { ...tree, api, port, token: created.trim().split('\n').pop()! };
      }),
    );
    // Those that started are stopped (finally below) even when another failed.
    for (const outcome of started) if (outcome.status === 'fulfilled') serving.push(outcome.value);
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    process.stdout.write(`serving ${serving.map((s) => s.label).join(', ')}\n`);
    for (const s of serving) await settled(s.api);
    await Promise.all(serving.map((s) => runIn(s.port, numberFlag('run-in-seconds', 30))));
    for (const call of selected) {
      for (const s of serving) {
        // Warm-up as bench:scale does it: one request per connection (building lazy state), then steady traffic on
        // other accounts than the measured ones.
        await measure(call, s.port, s.token, CONCURRENCY, seconds, Math.max(timeoutMs, 120_000));
        const warm = { ...call, body: call.body && ((i: number) => call.body!(WARMUP_OFFSET + i)) };
        await measure(warm, s.port, s.token, Number.MAX_SAFE_INTEGER, warmupSeconds, timeoutMs);
        await cancelLeftovers(databaseUrl);
      }
      const per = Math.ceil(total / rounds);
      const samples: Sample[][] = serving.map(() => []);
      const cpu = serving.map(zero);
      const pools = serving.map((s) => connections(s.port, call.concurrency ?? CONCURRENCY));
      for (let round = 0, from = 0; round < rounds && from < total; round++, from += per) {
        const size = Math.min(per, total - from);
        // Each round starts with the next tree, so none is always measured first (right after another's load).
        for (let k = 0; k < serving.length; k++) {
          const i = (round + k) % serving.length;
          const s = serving[i];
          samples[i].push(
            await metered(s.api, cpu[i], () => sample(call, s.port, s.token, from, size, seconds / rounds, timeoutMs, pools[i])),
          );
        }
      }
      await Promise.all(pools.map((pool) => pool.destroy()));
      const measured: Measured[] = samples.map((stretch) => summarize(stretch));
      const row: Record<string, string> = { operation: call.name };
      serving.forEach((s, i) => {
        const m = measured[i];
        const c = perAnswer(cpu[i], m);
        // CPU per answer: the API's own is the steady figure on a shared host; PostgreSQL's and Redis's are the whole
        // machine's servers' (other work on them included).
        row[s.label] =
          `${m.p50.toFixed(1)}/${m.p99.toFixed(1)} ms ${m.perSecond.toFixed(0)}/s cpu api ${c.api.toFixed(3)} pg ${c.postgres.toFixed(3)} ` +
          `redis ${c.redis.toFixed(3)} ms (${m.ok} ok, ${m.errors + m.timeouts} not)`;
        if (m.firstError) row[`${s.label}Error`] = m.firstError.replace(/\s+/g, ' ').slice(0, 120);
        if (i > 0) {
          const ref = measured[0];
          const refCpu = perAnswer(cpu[0], ref);
          row[`${s.label}Vs${serving[0].label}`] =
            `answers/s ${(m.perSecond / ref.perSecond).toFixed(3)}x p99 ${(m.p99 / ref.p99).toFixed(2)}x api cpu ${(c.api / refCpu.api).toFixed(2)}x`;
        }
      });
      rows.push(row);
      // Each row as soon as it is measured: a run cut short (a shared server out of connections) keeps what it had.
      report(`  measured ${call.name}`, [row]);
    }
  } finally {
    await Promise.all(serving.map((s) => stopApi(s.api)));
  }
  report(
    `side by side over ${o.accounts} accounts (${o.database}; ${serving.map((s) => `${s.label}=${s.root}`).join(', ')}; concurrency ${CONCURRENCY}, ≤${total} requests / ≤${seconds} s per operation and tree, ${rounds} rounds; ${hostConditions()})`,
    rows,
  );
  return rows;
}

if (require.main === module) {
  const trees = treesFlag(textFlag('trees') ?? '');
  if (trees.length < 2) throw new Error('--trees needs at least two trees');
  const accounts = numberFlag('accounts', 100_000);
  sideBySide({
    trees,
    database: textFlag('database') ?? `bench_scale_${accounts}`,
    accounts,
    only: textFlag('only')?.split(','),
    rebuildDerived: process.argv.includes('--rebuild-derived'),
  }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
