import Redis from 'ioredis';
import { HitTotalsUpgrade } from '../../src/common/redis/hit-totals-upgrade';
import { TrendingCounter } from '../../src/common/redis/trending-counter';
import { AppConfig } from '../../src/config/app-config';

/** Hit totals an earlier version kept in sorted sets are moved into the hashes the counters read now, once. */
describe('HitTotalsUpgrade', () => {
  const redis = new Redis({ host: '127.0.0.1', port: 6379 });
  const prefix = `test:hit-totals:${process.pid}:${Date.now()}`;
  const config = { redisPrefix: prefix } as AppConfig;
  const day = `d${new Date().toISOString().slice(0, 10)}`;

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('should move every legacy set into its hash exactly once, adding to hits written since, and keep the later expiry', async () => {
    const views = `${prefix}:views:rank-total:${day}`;
    const searches = `${prefix}:search:app:rank-total:${day}`;
    // More members than one chunk moves, so that the set is emptied over several script runs.
    const members = Array.from({ length: 1234 }, (_, i) => i + 1);
    await redis.zadd(views, ...members.flatMap((m) => [m, `${m}`]));
    await redis.expire(views, 20 * 86_400);
    await redis.zadd(searches, 4, 'dota');
    await redis.expire(searches, 5 * 86_400);
    // Hits counted by the new code before the upgrade ran: the moved ones add to them.
    await redis.hset(`${prefix}:views:hits:${day}`, '7', 2);
    await redis.expire(`${prefix}:views:hits:${day}`, 10 * 86_400);
    await redis.hset(`${prefix}:search:app:hits:${day}`, 'dota', 1);
    await redis.expire(`${prefix}:search:app:hits:${day}`, 30 * 86_400);
    // Another prefix's legacy set is not this service's to move.
    await redis.zadd(`${prefix}-other:views:rank-total:${day}`, 1, '1');

    // Two processes booting together: each chunk is popped and added in one step, so no hit is counted twice.
    const moved = await Promise.all([new HitTotalsUpgrade(redis, config).run(), new HitTotalsUpgrade(redis, config).run()]);
    expect(moved[0] + moved[1]).toBeGreaterThanOrEqual(2);

    const hits = await redis.hgetall(`${prefix}:views:hits:${day}`);
    expect(Object.keys(hits)).toHaveLength(members.length);
    for (const m of members) expect(Number(hits[String(m)])).toBe(m === 7 ? 9 : m);
    expect(await redis.hget(`${prefix}:search:app:hits:${day}`, 'dota')).toBe('5');
    expect(await redis.exists(views, searches)).toBe(0);
    // The later expiry of set and hash.
    expect(await redis.ttl(`${prefix}:views:hits:${day}`)).toBeGreaterThan(19 * 86_400);
    expect(await redis.ttl(`${prefix}:search:app:hits:${day}`)).toBeGreaterThan(29 * 86_400);
    expect(await redis.zscore(`${prefix}-other:views:rank-total:${day}`, '1')).toBe('1');

    // The counters read the moved totals.
    const counts = await new TrendingCounter(redis, `${prefix}:views`).counts('7', '30d');
    expect(counts.total).toBe(9);

    // Done once: a later boot finds the marker and scans nothing, even if a stray legacy set appears.
    await redis.zadd(views, 1, 'late');
    expect(await new HitTotalsUpgrade(redis, config).run()).toBe(0);
    expect(await redis.zscore(views, 'late')).toBe('1');
  });
});
