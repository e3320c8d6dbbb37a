import fc from 'fast-check';
import Redis from 'ioredis';
import { REDIS_URL } from '../support/stores';
import { ViewHit, ViewTrends } from '../../src/accounts/views/view-trends';
import { WriteBehind } from '../../src/common/batching/write-behind';
import { TrendingCounter } from '../../src/common/redis/trending-counter';
import { AppConfig } from '../../src/config/app-config';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WriteBehind', () => {
  it('should write what waits together after the delay, at once when full, and let readers wait for it', async () => {
    const written: number[][] = [];
    const batches = new WriteBehind<number>(
      async (items) => {
        await sleep(5);
        written.push(items);
      },
      30,
      4,
    );
    const first = [batches.add(1), batches.add(2)];
    await sleep(5);
    expect(written).toEqual([]); // still waiting for others
    await Promise.all(first);
    expect(written).toEqual([[1, 2]]);

    // Full: written without waiting for the delay (a minute here, so a busy host cannot blur the difference).
    const patient = new WriteBehind<number>(async (items) => void written.push(items), 60_000, 4);
    const full = Promise.all([3, 4, 5, 6].map((n) => patient.add(n))).then(() => 'written');
    expect(await Promise.race([full, sleep(5_000).then(() => 'still waiting')])).toBe('written');
    expect(written[1]).toEqual([3, 4, 5, 6]);

    // A reader's flush starts the write of what waits and returns once it is written.
    void batches.add(7);
    await batches.flush();
    expect(written[2]).toEqual([7]);
    await batches.flush(); // nothing waits: resolves
    expect(written).toHaveLength(3);
  });

  it('should fail only the writes of a failed batch, and still let a flush return', async () => {
    let fail = true;
    const batches = new WriteBehind<number>(
      async () => {
        if (fail) throw new Error('Redis is away');
      },
      10,
      100,
    );
    const failed = batches.add(1);
    const flushed = batches.flush();
    await expect(failed).rejects.toThrow('Redis is away');
    await expect(flushed).resolves.toBeUndefined();
    fail = false;
    await expect(batches.add(2)).resolves.toBeUndefined();
  });
});

/**
 * ViewTrends.hitMany writes, batch by batch, what TrendingCounter.hit (the plain per-hit write the rankings were
 * built on) writes hit by hit, on the same keys; and it raises every existing rolling ranking as a per-hit write did:
 * a ranking of a bucket gains each new visitor of that bucket and of the one before it.
 */
describe('ViewTrends.hitMany', () => {
  const redis = new Redis(REDIS_URL);
  const root = `test:view-batches:${process.pid}:${Date.now()}`;
  // 22:30 UTC: the hits' 20-minute slots cross hours and a day.
  const BASE = Date.UTC(2026, 0, 1, 22, 30);
  const SLOT_MS = 20 * 60_000;
  const SLOTS = 9;

  afterAll(async () => {
    const keys = await redis.keys(`${root}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  const bucket = (unit: 'h' | 'd', at: number) => `${unit}${new Date(at).toISOString().slice(0, unit === 'h' ? 13 : 10)}`;

  async function sortedSet(key: string): Promise<Record<string, number>> {
    const flat = await redis.zrange(key, 0, -1, 'WITHSCORES');
    const out: Record<string, number> = {};
    for (let i = 0; i < flat.length; i += 2) out[flat[i]] = Number(flat[i + 1]);
    return out;
  }

  it('should count like one hit at a time, in any split into batches', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ member: fc.integer({ min: 1, max: 4 }), visitor: fc.integer({ min: 1, max: 3 }), slot: fc.nat(SLOTS - 1) }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 10 }),
        async (draws, sizes) => {
          run++;
          const batched = `${root}:${run}:batched`;
          const reference = `${root}:${run}:reference`;
          const trends = new ViewTrends(redis, { redisPrefix: batched } as AppConfig);
          const counter = new TrendingCounter(redis, `${reference}:views`);
          const hits: ViewHit[] = draws
            // A viewer counts once per profile and window (the views' rule, not the generic counter's): one hit per viewer
            // here, so the batches are compared with one hit at a time; the once-per-window rule is tested below.
            .map(({ member, visitor, slot }, i) => ({
              member: String(member),
              visitor: `v${visitor}-${i}`,
              at: new Date(BASE + slot * SLOT_MS),
            }))
            .sort((a, b) => a.at.getTime() - b.at.getTime());
          const hours = [...new Set(Array.from({ length: SLOTS + 3 }, (_, s) => bucket('h', BASE + (s - 3) * SLOT_MS)))];
          const days = [...new Set(hours.map((hour) => hour.slice(1, 11)))].map((day) => `d${day}`);
          // Rolling rankings that exist before the hits (a reader built them): marked by a member that is no profile.
          const rollings = [
            ...hours.map((hour) => ({
              key: `${batched}:views:rolling:24h:${hour}`,
              own: hour,
              previous: bucket('h', Date.parse(`${hour.slice(1)}:00:00Z`) - 3_600_000),
            })),
            ...days.flatMap((day) =>
              (['7d', '30d'] as const).map((window) => ({
                key: `${batched}:views:rolling:${window}:${day}`,
                own: day,
                previous: bucket('d', Date.parse(`${day.slice(1)}T00:00:00Z`) - 86_400_000),
              })),
            ),
          ];
          for (const { key } of rollings) await redis.zadd(key, 0, 'marker');

          let at = 0;
          for (let i = 0; at < hits.length; i++) {
            const size = sizes[i % sizes.length];
            await trends.hitMany(hits.slice(at, at + size));
            at += size;
          }
          for (const hit of hits) await counter.hit(hit.member, hit.visitor, hit.at);

          for (const name of [...hours, ...days]) {
            expect(await sortedSet(`${batched}:views:rank-unique:${name}`)).toEqual(
              await sortedSet(`${reference}:views:rank-unique:${name}`),
            );
            expect(await redis.hgetall(`${batched}:views:hits:${name}`)).toEqual(await redis.hgetall(`${reference}:views:hits:${name}`));
            for (const member of ['1', '2', '3', '4'])
              expect(await redis.pfcount(`${batched}:views:visitors:${name}:${member}`)).toBe(
                await redis.pfcount(`${reference}:views:visitors:${name}:${member}`),
              );
          }
          for (const { key, own, previous } of rollings) {
            const expected: Record<string, number> = { marker: 0 };
            for (const name of [own, previous])
              for (const [member, score] of Object.entries(await sortedSet(`${reference}:views:rank-unique:${name}`)))
                expected[member] = (expected[member] ?? 0) + score;
            expect(await sortedSet(key)).toEqual(expected);
          }
          // Every key the batches wrote expires (buckets outlive the longest window).
          for (const key of await redis.keys(`${batched}:views:*`))
            if (!key.includes(':rolling:')) expect(await redis.ttl(key)).toBeGreaterThan(30 * 86_400);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('should report which hits have a watched key, across the hours a batch spans', async () => {
    const prefix = `${root}:watched`;
    const trends = new ViewTrends(redis, { redisPrefix: prefix } as AppConfig);
    const hits: ViewHit[] = Array.from({ length: 7 }, (_, i) => ({
      member: String(i + 1),
      visitor: `v${i}`,
      at: new Date(BASE + (i % 3) * SLOT_MS * 2),
    }));
    const watchKeys = hits.map(({ member }) => `${prefix}:followed:${member}`);
    for (const i of [1, 4, 6]) await redis.set(watchKeys[i], '1');
    expect(await trends.hitMany(hits, watchKeys)).toEqual([1, 4, 6]);
    // Without watch keys nothing is reported; the same viewers again count nothing more (once per profile and window).
    expect(await trends.hitMany(hits)).toEqual([]);
    expect(await redis.hget(`${prefix}:views:hits:${bucket('d', BASE)}`, '2')).toBe('1');
  });
});
