import Redis from 'ioredis';
import { CallBudget } from 'src/platform/client/call-budget';
import { PlatformBudgetExceededError } from 'src/platform/client/platform-client';
import { REDIS_URL } from '../../support/stores';

describe('CallBudget', () => {
  const redis = new Redis(REDIS_URL);
  const root = `test:call-budget:${process.pid}:${Date.now()}`;
  let n = 0;
  const prefix = (): string => `${root}:${++n}:`;

  afterAll(async () => {
    const keys = await redis.keys(`${root}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('should allow takes up to the limit and refuse the next without counting it', async () => {
    const budget = new CallBudget(redis, 3, prefix());
    await budget.take();
    await budget.take(2);
    await expect(budget.take()).rejects.toBeInstanceOf(PlatformBudgetExceededError);
    expect(await budget.used()).toBe(3);
    expect(await budget.remaining()).toBe(0);
  });

  it('should keep one expiring counter per UTC day', async () => {
    let now = Date.UTC(2026, 0, 1, 23, 59);
    const p = prefix();
    const budget = new CallBudget(redis, 1, p, () => now);
    await budget.take();
    expect(budget.key()).toBe(`${p}2026-01-01`);
    expect(await redis.ttl(budget.key())).toBeGreaterThan(86_400);
    await expect(budget.take()).rejects.toBeInstanceOf(PlatformBudgetExceededError);
    now += 2 * 60_000;
    await budget.take();
    expect(budget.key()).toBe(`${p}2026-01-02`);
  });

  it('should be exact under concurrency across clients', async () => {
    const p = prefix();
    const other = new Redis(REDIS_URL);
    try {
      const budgets = [new CallBudget(redis, 10, p), new CallBudget(other, 10, p)];
      const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => budgets[i % 2].take()));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      expect(await budgets[0].used()).toBe(10);
    } finally {
      await other.quit();
    }
  });

  it('should refuse a take larger than what is left, reserving nothing', async () => {
    const budget = new CallBudget(redis, 5, prefix());
    await budget.take(4);
    await expect(budget.take(2)).rejects.toBeInstanceOf(PlatformBudgetExceededError);
    await budget.take(1);
    expect(await budget.used()).toBe(5);
  });
});
