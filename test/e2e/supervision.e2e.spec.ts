import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { commandOf, entrypoint } from '../support/entrypoints';
import { freePort } from '../support/ports';
import { startTestApp, TestContext } from '../support/test-app';

/** The children start.js runs, by name, from /proc (Linux): pid of the API (main.js) and of the worker. */
function childrenOf(pid: number): { api?: number; worker?: number } {
  const found: { api?: number; worker?: number } = {};
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== pid || state === 'Z') continue;
    } catch {
      continue;
    }
    const command = commandOf(entry);
    if (/src\/main\.js/.test(command)) found.api = Number(entry);
    if (/src\/worker\.js/.test(command)) found.worker = Number(entry);
  }
  return found;
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `npm start` (start.js) supervises its two children: one that dies on its own is started again after a backoff while
 * the other keeps serving; only a signal stops everything. Run from the compiled entrypoint, as `npm start` runs dist/.
 */
describe('npm start supervision', () => {
  let ctx: TestContext;
  let start: ChildProcess | null = null;

  beforeAll(async () => {
    ctx = await startTestApp('supervise');
  });
  afterAll(async () => {
    if (start?.pid && start.exitCode === null) {
      for (const pid of Object.values(childrenOf(start.pid))) process.kill(pid, 'SIGKILL');
      start.kill('SIGKILL');
    }
    await ctx.close();
  });

  it('should restart a SIGKILLed worker or API within seconds, the other serving on, with no update left in_progress', async () => {
    const [port, simulatorPort] = [await freePort(), await freePort()];
    start = spawn(process.execPath, [entrypoint('start.ts')], {
      env: {
        PATH: process.env.PATH ?? '',
        TZ: 'UTC',
        PORT: String(port),
        SIMULATOR_PORT: String(simulatorPort),
        SIMULATOR_ACCOUNTS: '100',
        SIMULATOR_SEED: '11',
        // Slow platform answers keep an update in flight long enough to kill the worker in the middle of it.
        SIMULATOR_LATENCY_MS: '300',
        DATABASE_URL: ctx.config.databaseUrl,
        REDIS_URL: ctx.config.redisUrl,
        REDIS_PREFIX: ctx.config.redisPrefix,
        UPDATE_LOCK_MS: '2000',
        UPDATE_STALLED_CHECK_MS: '1000',
        UPDATE_RECOVERY_INTERVAL_MS: '2000',
        LOG_LEVEL: 'error',
      },
      stdio: 'ignore',
    });
    const pid = start.pid as number;
    const healthy = () =>
      fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.ok,
        () => false,
      );
    const both = () => {
      const found = childrenOf(pid);
      return found.api && found.worker ? (found as { api: number; worker: number }) : undefined;
    };
    await until('the API to answer', async () => ((await healthy()) ? true : undefined), 90_000);
    const first = await until('both children', both, 30_000);

    // The worker dies mid-update: the API keeps answering, a new worker comes within seconds and the update completes.
    const key = await ctx.apiKey(50);
    const status = async () =>
      (await ctx.dataSource.query('SELECT last_queue_status FROM accounts WHERE account_id = 7'))[0]?.last_queue_status as
        string | undefined;
    const queued = await fetch(`http://127.0.0.1:${port}/v1/account.queueUpdate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ id: { accountId: 7 } }),
    });
    expect(queued.status).toBe(204);
    await until('the worker to start the update', async () => ((await status()) === 'in_progress' ? true : undefined), 30_000);
    process.kill(first.worker, 'SIGKILL');
    const killedAt = Date.now();
    expect(await healthy()).toBe(true);
    // One look at the children per try: between two looks a child may be gone.
    const newChild = (kind: 'api' | 'worker', old: number) => () => {
      const pids = both();
      return pids && pids[kind] !== old ? pids : undefined;
    };
    const second = await until('a new worker', newChild('worker', first.worker), 10_000);
    const workerBackMs = Date.now() - killedAt;
    expect(second.api).toBe(first.api);
    await until('the update to complete', async () => ((await status()) === 'completed' ? true : undefined), 60_000);
    const stuck = await ctx.dataSource.query(`SELECT count(*)::int AS n FROM accounts WHERE last_queue_status = 'in_progress'`);
    expect(stuck[0].n).toBe(0);

    // The API dies: the worker runs on (same pid) and the API answers again within seconds.
    process.kill(second.api, 'SIGKILL');
    const apiKilledAt = Date.now();
    await until('a new API', newChild('api', second.api), 10_000);
    await until('the API to answer again', async () => ((await healthy()) ? true : undefined), 30_000);
    const apiBackMs = Date.now() - apiKilledAt;
    expect(both()!.worker).toBe(second.worker);
    console.log(`worker back ${workerBackMs} ms after SIGKILL; API answering again ${apiBackMs} ms after SIGKILL`);
    expect(apiBackMs).toBeLessThan(30_000);

    // A signal stops everything.
    const exited = new Promise<number | null>((resolve) => start!.once('exit', (code) => resolve(code)));
    start.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(childrenOf(pid)).toEqual({});
  }, 240_000);
});
