import Redis from 'ioredis';
import { LAYOUT_MIN_MEMBERS, layOutLargeSets } from '../../src/ranks/rank-order-layout';
import { memberOf } from '../../src/ranks/rank-scopes';
import { REDIS_URL, clearRedisPrefix, uniqueName } from '../support/test-app';

/**
 * A fresh version's large boards are copied in rank order over themselves (rank-order-layout.ts) before the version
 * is served: the copy must hold exactly what the set held (members, scores, ties included), through several chunks,
 * leave no copy key behind, and leave small sets alone.
 */
describe('boards laid out in rank order', () => {
  let redis: Redis;
  const prefix = uniqueName('layout');
  const large = `${prefix}:large`;
  const small = `${prefix}:small`;
  const everything = (key: string) => redis.zrange(key, 0, -1, 'WITHSCORES');

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    // Added in account-id order, as a build adds them; scores repeat (ties are ordered by member) and are not integers.
    const members = 25_017; // over two copy chunks and a part
    for (let from = 1; from <= members; from += 5_000) {
      const args: (string | number)[] = [];
      for (let id = from; id < Math.min(from + 5_000, members + 1); id++) args.push(((id * 7919) % 1_013) / 4, memberOf(id));
      await redis.zadd(large, ...args);
    }
    await redis.zadd(small, 5, memberOf(1), 3, memberOf(2));
  });
  afterAll(async () => {
    await clearRedisPrefix(prefix);
    await redis.quit();
  });

  it('should keep every member and score of a large set and leave small ones as they are', async () => {
    const [largeBefore, smallBefore] = [await everything(large), await everything(small)];
    const sizes = new Map([
      [large, await redis.zcard(large)],
      [small, await redis.zcard(small)],
    ]);
    expect(sizes.get(large)).toBeGreaterThan(LAYOUT_MIN_MEMBERS);

    const moved = await layOutLargeSets(redis, sizes);

    expect(moved).toBe(sizes.get(large));
    expect(await everything(large)).toEqual(largeBefore);
    expect(await everything(small)).toEqual(smallBefore);
    expect(await redis.exists(`${large}:layout`)).toBe(0);
    // The highest score (the last entry of an ascending read) still ranks first.
    const top = largeBefore[largeBefore.length - 2];
    expect(await redis.zrevrank(large, top)).toBe(0);
  });
});
