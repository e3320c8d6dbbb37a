import Redis from 'ioredis';
import { AddressInfo } from 'node:net';
import { PlatformSpending } from '../../src/platform/spending/platform-spending';
import { openSse } from '../support/sse';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { REDIS_URL } from '../support/test-app';

const SUMMARIES = '/ISteamUser/GetPlayerSummaries/v2/';

/**
 * What requests may spend of the platform's daily call budget (src/platform/spending): a budget of 400 calls, one
 * account's share 5 % an hour (20 calls), the worker's reserve 20 % (requests together: 320 a day).
 */
describe('platform spending', () => {
  let ctx: PipelineContext;
  let port: number;
  let redis: Redis;
  const today = () => new Date().toISOString().slice(0, 10);
  const used = async () => Number((await redis.get(`${ctx.config.redisPrefix}:platform:budget:${today()}`)) ?? 0);

  beforeAll(async () => {
    ctx = await startPipeline('spending', {
      env: { PLATFORM_DAILY_CALL_BUDGET: '400', PLATFORM_ACCOUNT_HOURLY_PERCENT: '5', PLATFORM_WORKER_RESERVE_PERCENT: '20' },
    });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
    await ctx.close();
  });

  it('should reserve what an update really spends, and give back what a request did not spend', async () => {
    const key = await ctx.apiKey(3);
    const spending = ctx.app.get(PlatformSpending);
    await ctx.startWorker();
    try {
      const before = await used();
      await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 250 } })
        .expect(204);
      await ctx.waitForCompletion(250, key);
      // One look-up and one update: the calls made are the calls reserved.
      expect(await spending.reservedThisHour(3)).toBe(7);
      expect((await used()) - before).toBe(7);
      // Queued again within the cooldown: 429, and nothing stays reserved for it.
      await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 250 } })
        .expect(429);
      expect(await spending.reservedThisHour(3)).toBe(7);
    } finally {
      await ctx.stopWorker();
    }
  });

  it('should hold one account, with all the keys it may hold, to its hourly share whatever it calls', async () => {
    const spending = ctx.app.get(PlatformSpending);
    expect(spending.accountHourlyLimit).toBe(20);
    const keys = await Promise.all(Array.from({ length: 10 }, () => ctx.apiKey(1)));
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    const usedBefore = await used();
    // Every kind of request that spends platform calls, round-robin over the ten keys, on untracked accounts.
    for (let i = 0; i < 30; i++) {
      const key = keys[i % keys.length];
      const kind = i % 3;
      let status: number;
      if (kind === 0) {
        const res = await ctx
          .http()
          .post('/v1/account.queueUpdate')
          .set('Authorization', `Bearer ${key}`)
          .send({ id: { accountId: 100 + i } });
        status = res.status;
        if (status === 429) retryAfter ??= res.headers['retry-after'];
      } else if (kind === 1) {
        const stream = await openSse(port, `/v1/account.subscribe?accountId=${200 + i}`, { Authorization: `Bearer ${key}` });
        status = stream.status;
        stream.close();
      } else {
        status = (await ctx.http().post('/v1/account.refreshInventory').set('Authorization', `Bearer ${key}`).send({})).status;
      }
      statuses.push(status);
    }
    // Never a 500; past the share 429 with Retry-After (at most an hour).
    expect(statuses.filter((status) => ![200, 204, 429].includes(status))).toEqual([]);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(10);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(3600);
    // What was reserved stays within the share, and the calls made so far (the look-ups) within what was reserved.
    const reserved = await spending.reservedThisHour(1);
    expect(reserved).toBeGreaterThan(0);
    expect(reserved).toBeLessThanOrEqual(20);
    expect((await used()) - usedBefore).toBeLessThanOrEqual(reserved);
    // Another account is not held back by the first one's spending.
    const other = await ctx.apiKey(2);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set('Authorization', `Bearer ${other}`)
      .send({ id: { accountId: 150 } })
      .expect(204);
  });

  it('should ask the platform once about an account it does not have, however often it is asked', async () => {
    const key = await ctx.apiKey(4);
    const id = 5000; // the simulator has accounts 1..300
    const path = SUMMARIES;
    const before = ctx.simulator.requestsFor(path);
    for (let i = 0; i < 3; i++) {
      const stream = await openSse(port, `/v1/account.subscribe?accountId=${id}`, { Authorization: `Bearer ${key}` });
      expect(stream.status).toBe(404);
      const queued = await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: id } });
      expect(queued.status).toBe(404);
    }
    expect(ctx.simulator.requestsFor(path) - before).toBe(1);
    // A vanity nobody has: one ResolveVanityURL, then the cached answer.
    const vanityBefore = ctx.simulator.requestsFor('/ISteamUser/ResolveVanityURL/v1/');
    for (let i = 0; i < 3; i++)
      await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ vanity: { type: 'steam', value: 'nobodyhasthisname' } })
        .expect(404);
    expect(ctx.simulator.requestsFor('/ISteamUser/ResolveVanityURL/v1/') - vanityBefore).toBe(1);
  });

  it('should answer a spent budget with 503 and Retry-After, never 500', async () => {
    const key = await ctx.apiKey(5);
    const budgetKey = `${ctx.config.redisPrefix}:platform:budget:${today()}`;
    const requestedKey = `${ctx.config.redisPrefix}:platform:requested:${today()}`;
    const [budget, requested] = [await redis.get(budgetKey), await redis.get(requestedKey)];
    try {
      // The worker spent the whole day's budget: a look-up cannot be made.
      await redis.set(budgetKey, '400');
      const spent = await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 271 } });
      expect(spent.status).toBe(503);
      expect(spent.headers['content-type']).toMatch(/problem\+json/);
      expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(spent.headers['retry-after'])).toBeLessThanOrEqual(86_400);
      const stream = await openSse(port, '/v1/account.subscribe?accountId=272', { Authorization: `Bearer ${key}` });
      expect(stream.status).toBe(503);
      await redis.set(budgetKey, budget ?? '0');
      // Requests reserved all they may today (the rest is the worker's): 503 before any call.
      await redis.set(requestedKey, '320');
      const reserved = await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 273 } });
      expect(reserved.status).toBe(503);
      expect(Number(reserved.headers['retry-after'])).toBeGreaterThan(0);
      expect(reserved.body.detail).toContain('kept for queued refreshes');
    } finally {
      await redis.set(budgetKey, budget ?? '0');
      await redis.set(requestedKey, requested ?? '0');
    }
  });
});
