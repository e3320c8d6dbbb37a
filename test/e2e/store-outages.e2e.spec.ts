import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { AccountAdminService } from '../../src/accounts/account-admin.service';
import { dropDatabase } from '../../src/database/ensure-database';
import { createHttpApp } from '../../src/http-app';
import { cloneTemplate } from '../support/databases';
import { captureLogs } from '../support/logs';
import { PostgresProxy, PrivateRedis } from '../support/private-stores';
import { databaseUrl, viaAddress } from '../support/stores';
import { clearRedisPrefix, testConfig, uniqueName } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every line written to stdout by anything but the logger (a library printing by itself), for checking it is JSON. */
function captureStdout(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  return { lines, restore: () => (process.stdout.write = write) };
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('losing a backing store while running', () => {
  let app: INestApplication;
  let name: string;
  let key: string;
  const redis = new PrivateRedis(16400 + Math.floor(Math.random() * 1000));
  const postgres = new PostgresProxy();
  const logs = captureLogs();
  const stdout = captureStdout();
  const consoleError = jest.spyOn(console, 'error');

  beforeAll(async () => {
    redis.start();
    await postgres.open();
    name = uniqueName('outage');
    await cloneTemplate(name);
    const config = testConfig(name, {
      DATABASE_URL: viaAddress(databaseUrl(name), '127.0.0.1', postgres.port),
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      LOG_LEVEL: 'info',
    });
    app = await createHttpApp(config);
    await app.init();
    await app.get(AccountAdminService).ensureAccount(4001);
    key = (await app.get(ApiKeyService).create({ accountId: 4001, name: 'outage' })).secret;
  });
  afterAll(async () => {
    logs.restore();
    stdout.restore();
    await app?.close();
    await postgres.close();
    await redis.stop();
    await clearRedisPrefix(`test:${name}`);
    await dropDatabase(databaseUrl(name));
  });

  const http = () => request(app.getHttpServer());
  const getStats = () => http().post('/v1/stats.getStats').set('Authorization', `Bearer ${key}`);
  const expect503 = async (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 503, title: 'Service Unavailable' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('should answer 503 and report Redis down while it is away, and recover by itself', async () => {
    await getStats().expect(200);
    await redis.stop();
    const started = Date.now();
    await expect503(await getStats());
    await expect503(await http().post('/v1/activity.listGlobalFeed'));
    await expect503(
      await http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 4001 } }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    const health = await http().get('/health');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'degraded', checks: { postgres: 'up', redis: 'down' } });

    redis.start();
    await waitFor('health', async () => (await http().get('/health')).status === 200);
    await getStats().expect(200);
  }, 40_000);

  it('should answer 503 and report PostgreSQL down while it is away, and recover by itself', async () => {
    await getStats().expect(200);
    await postgres.close();
    const started = Date.now();
    await expect503(await getStats());
    await expect503(
      await http()
        .post('/v1/account.getInfo')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 4001 } }),
    );
    // The Redis restarted by the test before is empty: a rank read finds no version and starts a build in the
    // background, which fails with PostgreSQL away. The build's failure is logged, never an unhandled rejection (that
    // would stop the process); the read answers 503 meanwhile.
    await expect503(
      await http()
        .post('/v1/leaderboard.getAccountLeaderboard')
        .set('Authorization', `Bearer ${key}`)
        .send({ leaderboard: 'xp', start: 1, end: 10 }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    const health = await http().get('/health');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'degraded', checks: { postgres: 'down', redis: 'up' } });
    await waitFor('the failed build to be logged', async () =>
      logs.lines.some((line) => line.includes('build of a versioned state failed')),
    );

    await postgres.open();
    await waitFor('health', async () => (await http().get('/health')).status === 200);
    await getStats().expect(200);
  }, 40_000);

  it('should have logged only JSON lines, naming each outage once rather than per retry', () => {
    const parsed = [...logs.lines, ...stdout.lines].map((line) => {
      try {
        return JSON.parse(line) as { msg?: string };
      } catch {
        throw new Error(`not a JSON log line: ${line.slice(0, 200)}`);
      }
    });
    const messages = parsed.map((entry) => entry.msg);
    expect(messages).toContain('redis unavailable; reconnecting');
    expect(messages).toContain('redis connection restored');
    expect(messages).toContain('backing store unavailable; answering 503');
    // Once per connection (the command client, each subscriber) for the one Redis outage, not once per retry.
    const lost = (parsed as { msg?: string; role?: string }[]).filter((entry) => entry.msg === 'redis unavailable; reconnecting');
    expect(lost.length).toBeGreaterThan(0);
    expect(new Set(lost.map((entry) => entry.role)).size).toBe(lost.length);
    expect(messages).not.toContain('unhandled error');
    // ioredis prints "[ioredis] Unhandled error event" through console.error when a client has no error listener.
    expect(consoleError).not.toHaveBeenCalled();
  });
});
