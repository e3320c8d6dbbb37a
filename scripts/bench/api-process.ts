import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve as resolvePath } from 'node:path';
import { Client } from 'pg';
import { withHugePageMalloc } from '../../src/common/lifecycle/huge-pages';
import { API_V8_FLAGS } from '../../src/common/lifecycle/young-generation';
import { dropDatabase } from '../../src/database/ensure-database';
import { textFlag } from './harness';
import { connections, once } from './load';

/**
 * The API under measurement as a child process (the compiled dist/, as `npm start` runs it), and the CPU time it and
 * the stores spend, read from /proc: steadier than latency on a shared machine.
 */
const ROOT = join(__dirname, '..', '..');
const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment of an API serving reads over a seeded population: no platform, no worker, logs at `error`. */
export function readApiEnv(o: {
  databaseUrl: string;
  redisPrefix: string;
  port: number;
  seed: number;
  accounts: number;
}): NodeJS.ProcessEnv {
  return {
    // As npm start and the image start it: with malloc's huge pages (src/common/lifecycle/huge-pages.ts).
    ...withHugePageMalloc(process.env),
    DATABASE_URL: o.databaseUrl,
    REDIS_PREFIX: o.redisPrefix,
    PORT: String(o.port),
    LOG_LEVEL: 'error',
    SIMULATOR_SEED: String(o.seed),
    SIMULATOR_ACCOUNTS: String(o.accounts),
    // No platform is needed for reads; an explicit URL also keeps the API from embedding a simulator.
    PLATFORM_API_URL: 'http://127.0.0.1:9',
    API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
    SESSION_RATE_LIMIT_PER_MINUTE: '1000000',
  };
}

/** Runs a TypeScript entrypoint of the tree at `root` (this one by default) with ts-node. */
export function run(file: string, args: string[], env: NodeJS.ProcessEnv, root = ROOT): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [...TS_NODE, file, ...args], { cwd: root, env, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(' ')} failed: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

/**
 * Compiles the service as `npm start` does (`npm run build`: dist/), so the API measured is the one that ships; `root`
 * names another tree (a worktree of another commit, for side-by-side runs).
 */
export function buildDist(root = ROOT): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root }, (error, stdout) =>
      error ? reject(new Error(`the build failed: ${stdout || error.message}`)) : resolve(),
    ),
  );
}

/**
 * Starts the API and waits until `/health` answers 200; `onLine` receives its log lines (otherwise dropped). It runs
 * the compiled dist/src/main.js (buildDist first), as `npm start` and the Docker image do, not the TypeScript sources.
 */
export async function startApi(env: NodeJS.ProcessEnv, port: number, onLine?: (line: string) => void, root = ROOT): Promise<ChildProcess> {
  // --cpu-prof DIR: the API writes a V8 CPU profile there when it stops (open it in Chrome's DevTools or speedscope).
  const profileDir = textFlag('cpu-prof');
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  // --pauses FILE: the API appends its event-loop delay and GC pauses there every 5 s (pause-monitor.js).
  const pauses = textFlag('pauses');
  const monitor = pauses ? ['-r', join(__dirname, 'pause-monitor.js')] : [];
  // As npm start runs it: with the API's V8 options (young-generation.ts), unless API_NODE_FLAGS says otherwise (''
  // for V8's defaults; side-by-side gives each tree its own).
  const nodeFlags = env.API_NODE_FLAGS === undefined ? [...API_V8_FLAGS] : env.API_NODE_FLAGS.split(' ').filter(Boolean);
  const api = spawn(process.execPath, [...nodeFlags, ...profile, ...monitor, 'dist/src/main.js'], {
    cwd: root,
    env: pauses ? { ...env, PAUSE_MONITOR_FILE: resolvePath(pauses) } : env,
    stdio: ['ignore', onLine ? 'pipe' : 'ignore', 'inherit'],
  });
  if (onLine) createInterface({ input: api.stdout! }).on('line', onLine);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (api.exitCode !== null) throw new Error(`the API exited with code ${api.exitCode}`);
    const pool = connections(port, 1);
    const up = await once({ name: 'health', method: 'GET', path: '/health' }, '', 0, 2000, pool).catch(() => null);
    await pool.destroy();
    if (up?.status === 200) return api;
    if (Date.now() > deadline) throw new Error('the API did not become healthy within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** SIGTERM, and SIGKILL if it is still there 15 s later. */
export async function stopApi(api: ChildProcess): Promise<void> {
  api.kill('SIGTERM');
  const killer = setTimeout(() => api.kill('SIGKILL'), 15_000);
  await new Promise((resolve) => (api.exitCode !== null || api.signalCode !== null ? resolve(null) : api.once('exit', resolve)));
  clearTimeout(killer);
}

/**
 * Waits until the API has finished its boot-time work (at a million accounts it loads its friend graph, ~10 s of CPU,
 * after it already answers /health): until it spends under 5 % of a core over a second, for at most two minutes.
 * Measured during that work, the first operations' tails were the boot's, not theirs.
 */
export async function settled(api: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  let before = treeCpuMs(api.pid!);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = treeCpuMs(api.pid!);
    if (Number.isNaN(now) || now - before < 50) return;
    before = now;
  }
}

/** CPU time (user + system, ms) of a process and its live children, from /proc (NaN elsewhere). */
export function treeCpuMs(pid: number): number {
  const own = procStat(pid);
  if (!own) return NaN;
  const ticks = (fields: string[]) => Number(fields[11]) + Number(fields[12]);
  let total = ticks(own.fields);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
    const stat = procStat(entry);
    if (stat && Number(stat.fields[1]) === pid) total += ticks(stat.fields);
  }
  return (total * 1000) / 100;
}

/** The fields of /proc/<pid>/stat after the command name, and the name (NaN-safe: null when the process is gone). */
function procStat(id: number | string): { name: string; fields: string[] } | null {
  try {
    const text = readFileSync(`/proc/${id}/stat`, 'utf8');
    const close = text.lastIndexOf(') ');
    return { name: text.slice(text.indexOf('(') + 1, close), fields: text.slice(close + 2).split(' ') };
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, ms) of every PostgreSQL and Redis process on the machine, from /proc (null elsewhere). The
 * bench is their only client while it measures, so what they spend across a stretch of requests is those requests'.
 */
export function storesCpuMs(): StoresCpu | null {
  const out: StoresCpu = { postgres: new Map(), redis: new Map() };
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  for (const entry of entries) {
    const stat = procStat(entry);
    if (!stat) continue;
    const ms = ((Number(stat.fields[11]) + Number(stat.fields[12])) * 1000) / 100;
    if (stat.name === 'postgres') out.postgres.set(Number(entry), ms);
    else if (stat.name.startsWith('redis-server')) out.redis.set(Number(entry), ms);
  }
  return out;
}

/** CPU time (ms) per process of each store. */
export interface StoresCpu {
  postgres: Map<number, number>;
  redis: Map<number, number>;
}

/**
 * The CPU a store's processes spent between two readings. A backend that exited meanwhile takes its time with it
 * (its share since the first reading is lost rather than subtracted: summed totals went negative when connections
 * closed); one that started counts from zero.
 */
export function cpuSpent(before: Map<number, number> | undefined, after: Map<number, number> | undefined): number {
  if (!before || !after) return NaN;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/**
 * Queries the API left running after its client gave up would slow the next operation: cancel them. Best effort: on a
 * server whose connections are all taken (shared with other work) the run goes on without it.
 */
export async function cancelLeftovers(databaseUrl: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  try {
    await db.connect();
    await db.query(
      `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'badge-stats' AND state = 'active' AND pid <> pg_backend_pid()`,
    );
  } catch (error) {
    process.stdout.write(`  (leftover queries not cancelled: ${(error as Error).message})\n`);
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** Seeds the database (`bench_scale_<N>` or --database) unless it already holds N updated accounts; returns how long seeding took (0 if reused). */
export async function ensureSeeded(env: NodeJS.ProcessEnv, databaseUrl: string, accounts: number, seed: number): Promise<number> {
  const admin = new Client({ connectionString: databaseUrl.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  const name = databaseUrl.split('/').pop()!;
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  await admin.end();
  if (exists) {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const seeded = await db
      .query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE updated_at IS NOT NULL')
      .then((r) => r.rows[0].n)
      .catch(() => -1);
    await db.end();
    if (seeded === accounts) return 0;
    process.stdout.write(`${name} holds ${seeded} seeded accounts, not ${accounts}: seeding it again\n`);
    await dropDatabase(databaseUrl);
  }
  const started = Date.now();
  const out = await run('src/seed/seed.main.ts', ['--accounts', String(accounts), '--seed', String(seed)], env);
  process.stdout.write(out);
  return (Date.now() - started) / 1000;
}
