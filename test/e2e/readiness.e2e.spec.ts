import { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import { AppConfig } from '../../src/config/app-config';
import { dropDatabase } from '../../src/database/ensure-database';
import { createHttpApp } from '../../src/http-app';
import { cloneTemplate } from '../support/databases';
import { clearRedisPrefix, testConfig, uniqueName } from '../support/test-app';

/**
 * /health is readiness: 503 naming what the process still loads (the change feed's projections) until it has loaded
 * it, then the stores' verdict. The load is held back by a lock on `accounts`, which the card and rank replicas read.
 */
describe('readiness', () => {
  let config: AppConfig;
  let app: INestApplication | null = null;
  let locker: Client;

  beforeAll(async () => {
    const name = uniqueName('ready');
    await cloneTemplate(name);
    config = testConfig(name);
    locker = new Client({ connectionString: config.databaseUrl });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end().catch(() => undefined);
    await app?.close();
    await clearRedisPrefix(config.redisPrefix);
    await dropDatabase(config.databaseUrl);
  });

  it('should answer /health 503 with what it waits for until the friend graph is loaded, then 200', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE account_friends IN ACCESS EXCLUSIVE MODE');
    app = await createHttpApp(config);
    await app.init();
    const health = () => request(app!.getHttpServer()).get('/health');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const starting = await health();
    expect(starting.status).toBe(503);
    expect(starting.headers['retry-after']).toBe('1');
    expect(starting.body).toMatchObject({ status: 'starting', checks: { postgres: 'up', redis: 'up' } });
    expect(starting.body.waitingFor).toEqual(['friend-graph']);
    // Still waiting a while later: nothing but the load decides.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await health()).status).toBe(503);

    await locker.query('COMMIT');
    const deadline = Date.now() + 15_000;
    let ready = await health();
    while (ready.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ready = await health();
    }
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { postgres: 'up', redis: 'up' } });
  }, 60_000);
});
