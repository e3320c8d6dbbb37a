import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { REDIS } from '../../src/common/redis/redis.module';
import { startTestApp, TestContext } from '../support/test-app';
import { entrypoint } from '../support/entrypoints';

const run = promisify(execFile);

describe('the operator CLI', () => {
  let ctx: TestContext;
  const root = join(__dirname, '..', '..');
  const cli = (...args: string[]) =>
    run(process.execPath, [entrypoint('cli.ts'), ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: ctx.config.databaseUrl,
        REDIS_URL: ctx.config.redisUrl,
        REDIS_PREFIX: ctx.config.redisPrefix,
      },
    });

  beforeAll(async () => {
    ctx = await startTestApp('cli');
  });
  afterAll(() => ctx.close());

  it('should mint an API key and a session whose secrets are the last line, usable at once', async () => {
    const key = (await cli('api-key', 'create', '--account', '42', '--name', 'ci')).stdout.trim().split('\n').pop()!;
    expect(key).toMatch(/^sk_[0-9a-f]{12}_/);
    const [row] = await ctx.dataSource.query('SELECT name, secret_hash FROM api_keys WHERE account_id = 42');
    expect(row).toEqual({ name: 'ci', secret_hash: createHash('sha256').update(key).digest('hex') });
    await ctx.http().post('/v1/stats.getStats').set('Authorization', `Bearer ${key}`).expect(200);

    const session = (await cli('session', 'create', '--account', '42')).stdout.trim().split('\n').pop()!;
    expect(session).toMatch(/^auth_/);
    await ctx.http().post('/v1/account.getSettings').set('Authorization', `Bearer ${session}`).expect(200);

    const listed = (await cli('api-key', 'list', '--account', '42')).stdout;
    expect(listed).toContain('active');
    expect(listed).not.toContain(key);
  }, 60_000);

  it('should change roles and maintenance events through the services the admin operations use, audited as the CLI', async () => {
    expect((await cli('role', 'grant', '--account', '43', '--role', 'staff')).stdout.trim()).toBe('granted staff for account 43');
    const staff = (await ctx.session(43)).sessionToken;
    await ctx.http().post('/v1/admin.maintenance.list').set('Authorization', `Bearer ${staff}`).expect(200);
    const created = (await cli('maintenance', 'create', '--title', 'Upgrade', '--message', 'soon')).stdout.trim();
    const uid = /^created (mnt_[0-9a-f]{8})$/.exec(created)![1];
    expect((await cli('maintenance', 'delete', uid)).stdout.trim()).toBe(`deleted ${uid}`);
    expect((await cli('role', 'revoke', '--account', '43', '--role', 'staff')).stdout.trim()).toBe('revoked staff for account 43');
    await ctx.http().post('/v1/admin.maintenance.list').set('Authorization', `Bearer ${staff}`).expect(403);
    const rows = await ctx.dataSource.query(
      `SELECT via, actor_account_id, action, target_account_id, target_id FROM audit_log WHERE target_account_id = 43 OR target_id = $1 ORDER BY id`,
      [uid],
    );
    expect(rows).toEqual([
      { via: 'cli', actor_account_id: null, action: 'role.grant', target_account_id: 43, target_id: null },
      { via: 'cli', actor_account_id: null, action: 'admin.maintenance.create', target_account_id: null, target_id: uid },
      { via: 'cli', actor_account_id: null, action: 'admin.maintenance.delete', target_account_id: null, target_id: uid },
      { via: 'cli', actor_account_id: null, action: 'role.revoke', target_account_id: 43, target_id: null },
    ]);
  }, 60_000);

  it('should rebuild derived state, all of it or only the named keepers', async () => {
    await ctx.dataSource.query('UPDATE accounts SET xp = 70 WHERE account_id = 42');
    const only = (await cli('derived', 'rebuild', '--only', 'platform-totals')).stdout.trim().split('\n');
    expect(only).toEqual(['rebuilt platform-totals']);
    const [{ xp }] = await ctx.dataSource.query('SELECT sum(xp)::int AS xp FROM platform_totals');
    expect(xp).toBe(70);
    // On a Redis without ranks, a rebuild builds them once: the CLI's context builds nothing at boot.
    const ranks = (key: string) => `${ctx.config.redisPrefix}:ranks:${key}`;
    const redis = ctx.app.get<Redis>(REDIS);
    await redis.del(ranks('version'));
    const builds = Number(await redis.get(ranks('sequence')));
    const all = (await cli('derived', 'rebuild')).stdout;
    expect(Number(await redis.get(ranks('sequence')))).toBe(builds + 1);
    expect(await redis.get(ranks('version'))).toBe(String(builds + 1));
    for (const name of ['platform-totals', 'badge-holder-stats', 'app-card-classes', 'board-value-leaders'])
      expect(all).toContain(`rebuilt ${name}`);
    await expect(cli('derived', 'rebuild', '--only', 'nope')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown derived state nope'),
    });
  }, 90_000);

  it('should exit with usage on a bad command', async () => {
    await expect(cli('api-key', 'create')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--account is required') });
  }, 30_000);

  it('should answer --help with exit code 0 and a bad argument with one clear line and exit code 2, as a process', async () => {
    const help = await cli('accounts', 'refresh', '--help');
    expect(help.stdout).toContain('Usage: npm run cli -- accounts refresh [options]');
    await expect(cli('accounts', 'refresh', '--from', '1', '--count', 'many')).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: "error: option '--count <n>' argument 'many' is invalid. Expected a whole number from 1 to 10000.\n(add --help for usage)\n",
    });
  }, 30_000);
});
