import Redis from 'ioredis';
import { REDIS_URL } from '../support/stores';
import { TrendingCounter } from '../../src/common/redis/trending-counter';

/** Hit totals an earlier version kept in sorted sets are moved into the hashes the counters read now. */
describe('TrendingCounter.moveLegacyHits', () => {
  const redis = new Redis(REDIS_URL);
  const prefix = `test:hit-totals:${process.pid}:${Date.now()}`;
  const now = new Date();
  const day = `d${now.toISOString().slice(0, 10)}`;
  const hour = `h${now.toISOString().slice(0, 13)}`;
  const monthAgo = `d${new Date(now.getTime() - 31 * 86_400_000).toISOString().slice(0, 10)}`;

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('should move every legacy set of the counter into its hash once, adding to hits written since, and keep the later expiry', async () => {
    const views = new TrendingCounter(redis, `${prefix}:views`);
    const legacy = (bucket: string) => `${prefix}:views:rank-total:${bucket}`;
    const hits = (bucket: string) => `${prefix}:views:hits:${bucket}`;
    // More members than one chunk moves, so that the set is emptied over several script runs.
    const members = Array.from({ length: 1234 }, (_, i) => i + 1);
    await redis.zadd(legacy(day), ...members.flatMap((m) => [m, `${m}`]));
    await redis.expire(legacy(day), 20 * 86_400);
    await redis.zadd(legacy(hour), 3, 'dota');
    await redis.zadd(legacy(monthAgo), 4, 'old');
    await redis.expire(legacy(monthAgo), 86_400);
    // Hits counted by the new code before the move ran: the moved ones add to them.
    await redis.hset(hits(day), '7', 2);
    await redis.expire(hits(day), 10 * 86_400);
    await redis.hset(hits(hour), 'dota', 1);
    await redis.expire(hits(hour), 30 * 86_400);
    // Another counter's legacy set is not this counter's to move.
    await redis.zadd(`${prefix}:search:app:rank-total:${day}`, 1, 'x');

    // Two processes booting together: each chunk is popped and added in one step, so no hit is counted twice.
    const moved = await Promise.all([views.moveLegacyHits(now), new TrendingCounter(redis, `${prefix}:views`).moveLegacyHits(now)]);
    expect(moved[0] + moved[1]).toBeGreaterThanOrEqual(3);

    const dayHits = await redis.hgetall(hits(day));
    expect(Object.keys(dayHits)).toHaveLength(members.length);
    for (const m of members) expect(Number(dayHits[String(m)])).toBe(m === 7 ? 9 : m);
    expect(await redis.hget(hits(hour), 'dota')).toBe('4');
    expect(await redis.hget(hits(monthAgo), 'old')).toBe('4');
    expect(await redis.exists(legacy(day), legacy(hour), legacy(monthAgo))).toBe(0);
    // The later expiry of set and hash.
    expect(await redis.ttl(hits(day))).toBeGreaterThan(19 * 86_400);
    expect(await redis.ttl(hits(hour))).toBeGreaterThan(29 * 86_400);
    expect(await redis.zscore(`${prefix}:search:app:rank-total:${day}`, 'x')).toBe('1');

    // The counter reads the moved totals; a later boot finds nothing left to move.
    expect((await views.counts('7', '30d', now)).total).toBe(9);
    expect(await views.moveLegacyHits(now)).toBe(0);
  });
});
