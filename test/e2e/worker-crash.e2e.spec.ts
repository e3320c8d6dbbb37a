import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PlatformSimulator } from '../../src/platform/simulator';
import { startTestApp, TestContext } from '../support/test-app';
import { entrypoint } from '../support/entrypoints';

/** The real worker entrypoint as its own process, the way `npm run start:worker` runs it. */
function spawnWorker(env: Record<string, string>): ChildProcess {
  const root = join(__dirname, '..', '..');
  return spawn(process.execPath, [entrypoint('worker.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', ...env },
    stdio: 'ignore',
  });
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('worker crash recovery', () => {
  let ctx: TestContext;
  let simulator: PlatformSimulator;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    // Slow platform answers keep the job in flight long enough to kill the worker in the middle of it.
    simulator = new PlatformSimulator({ seed: 11, accounts: 100, latencyMs: 400, apiKey: null });
    const port = await simulator.listen(0);
    ctx = await startTestApp('crash', {
      PLATFORM_API_URL: `http://127.0.0.1:${port}`,
      UPDATE_LOCK_MS: '2000',
      UPDATE_STALLED_CHECK_MS: '1000',
    });
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await ctx.close();
    await simulator.close();
  });

  it('should complete an update whose worker was killed with SIGKILL mid-job, once a worker runs again', async () => {
    const env = {
      DATABASE_URL: ctx.config.databaseUrl,
      REDIS_URL: ctx.config.redisUrl,
      REDIS_PREFIX: ctx.config.redisPrefix,
      PLATFORM_API_URL: ctx.config.platform.apiUrl,
      UPDATE_LOCK_MS: '2000',
      UPDATE_STALLED_CHECK_MS: '1000',
      LOG_LEVEL: 'error',
    };
    const key = await ctx.apiKey(50);
    const status = async () =>
      (await ctx.dataSource.query('SELECT last_queue_status FROM accounts WHERE account_id = 7'))[0]?.last_queue_status as
        string | undefined;

    const first = spawnWorker(env);
    workers.push(first);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId: 7 } })
      .expect(204);
    await until('the first worker to start the job', async () => ((await status()) === 'in_progress' ? true : undefined), 30_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(await status()).toBe('in_progress');

    workers.push(spawnWorker(env));
    await until('the update to complete', async () => ((await status()) === 'completed' ? true : undefined), 45_000);
    const runs = await ctx.dataSource.query('SELECT status, attempts FROM account_updates WHERE account_id = 7');
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('completed');
    expect(runs[0].attempts).toBeGreaterThanOrEqual(2);
    const stuck = await ctx.dataSource.query(`SELECT account_id FROM accounts WHERE last_queue_status IN ('pending', 'in_progress')`);
    expect(stuck).toEqual([]);
  }, 90_000);
});
