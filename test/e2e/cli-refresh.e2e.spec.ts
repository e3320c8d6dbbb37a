import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { entrypoint } from '../support/entrypoints';

/**
 * The quick start's command, `accounts refresh`, as its own process against the real stack: it queues through the
 * service, the worker (in-process here) updates the accounts from the simulator, and the CLI follows them to the end.
 */
describe('the CLI’s accounts refresh', () => {
  let ctx: PipelineContext;
  const root = join(__dirname, '..', '..');

  /** Runs the CLI from source with the pipeline's stores and simulator; resolves whatever the exit code. */
  const cli = (...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [entrypoint('cli.ts'), ...args],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            DATABASE_URL: ctx.config.databaseUrl,
            REDIS_URL: ctx.config.redisUrl,
            REDIS_PREFIX: ctx.config.redisPrefix,
            PLATFORM_API_URL: ctx.simulatorUrl,
            SIMULATOR_ACCOUNTS: '300',
            UPDATE_ATTEMPTS: '3',
            PLATFORM_MAX_RETRIES: '1',
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    // The simulator has accounts 1..300; the worker is started by the test.
    ctx = await startPipeline('clirefresh', { accounts: 300 });
  });
  afterAll(() => ctx.close());

  it('should say when no worker is listening, and give up after --timeout with exit code 1', async () => {
    const { code, stdout, stderr } = await cli('accounts', 'refresh', '--from', '291', '--count', '5', '--timeout', '5');
    expect(code).toBe(1);
    expect(stderr).toContain('no update worker is connected');
    expect(stdout).toContain('accounts 291..295: 0 completed, 0 failed, 5 still waiting after 5 s');
    const rows = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM accounts WHERE account_id BETWEEN 291 AND 295 AND last_queue_status = 'pending'`,
    );
    expect(rows[0].n).toBe(5);
  }, 120_000);

  it('should wait for the worker to finish every update, show progress as plain lines off a terminal, and fail on unknown ids', async () => {
    await ctx.startWorker();
    // 296..300 exist, 301..304 do not. (291..295, queued above, are updated by the worker meanwhile.)
    const { code, stdout, stderr } = await cli('accounts', 'refresh', '--from', '296', '--count', '9');
    expect(code).toBe(1);
    expect(stdout.trim().split('\n')).toEqual([
      'accounts 296..304: 5 completed, 0 failed, 4 not found',
      'not found on the platform (the simulator has accounts 1..300): 301..304',
    ]);
    expect(stderr).not.toContain('\r');
    expect(stderr).toContain('accounts 296..304: 100% 5/5 done · 0 running · 0 failed');
    const key = await ctx.apiKey(1);
    for (let accountId = 291; accountId <= 295; accountId++) await ctx.waitForCompletion(accountId, key, 30_000);
    const [row] = await ctx.dataSource.query(
      `SELECT count(*)::int AS completed, max(level) AS level FROM accounts WHERE account_id BETWEEN 291 AND 300 AND last_queue_status = 'completed'`,
    );
    expect(row.completed).toBe(10);
    expect(row.level).toBeGreaterThan(0);
    // A full profile, not the empty one of a queued account.
    const profile = await ctx
      .http()
      .post('/v1/account.getInfo')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId: 300 } });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ lastQueueStatus: 'completed', updatedAt: expect.any(String) });
  }, 180_000);

  it('should skip accounts within their cooldown and exit 0', async () => {
    const { code, stdout } = await cli('accounts', 'refresh', '--from', '291', '--count', '10');
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(
      'accounts 291..300: 0 completed, 0 failed, 10 skipped (updated within the cooldown; --force refreshes them)',
    );
  }, 120_000);
});
