import Redis from 'ioredis';

/**
 * # Boards laid out in rank order
 *
 * A rank read (`ZREVRANK`) walks a sorted set's skip list from its head: at a million members that is ~40 nodes, each
 * a separate allocation, and on a machine where PostgreSQL, the API and the client share the caches each step is a
 * cache and TLB miss. The profile reads ~14 such ranks, and they were most of Redis's time under `account.getInfo`
 * (16 µs each under load at 1 M, against ~4 µs idle).
 *
 * A build fills its sets in account-id batches, so neighbours on a board sit anywhere in memory. Here each large set
 * of a fresh version is copied, in rank order, into a new key that then replaces it: Redis allocates the nodes (and
 * their members) in the order it inserts them, so the nodes the last steps of a walk visit — neighbours in rank — are
 * neighbours in memory too. Measured at 1 M (docs/performance.md): `ZREVRANK` 16.3 → 12.9 µs under load, 4.6 → 3.3 µs
 * idle. The layout is a property of the build: an account whose rank moves later gets a node allocated elsewhere, so
 * it fades with churn until the next rebuild. It changes no content (test/e2e/rank-layout.e2e.spec.ts).
 *
 * Only sets of a version not served yet are laid out (RankEngine.build, before the switch), so no reader or writer
 * sees a key between its copy and its rename; and only in a rebuild asked for by an operator or the seed, not in the
 * build that rank reads wait for (a first start or a flushed Redis: 503 until it is done), which it would lengthen.
 */

/** Entries read and written per round trip while copying. */
const CHUNK = 10_000;
/** Sets smaller than this are left as they are: a walk through them is short, and there are many of them. */
export const LAYOUT_MIN_MEMBERS = 4_096;

/** Copies a sorted set in rank order into a fresh key and renames it over the original; returns the entries moved. */
export async function layOutInRankOrder(redis: Redis, key: string): Promise<number> {
  const copy = `${key}:layout`;
  await redis.del(copy);
  let moved = 0;
  for (let from = 0; ; from += CHUNK) {
    const chunk = await redis.zrange(key, from, from + CHUNK - 1, 'WITHSCORES');
    if (!chunk.length) break;
    const args: string[] = [];
    for (let i = 0; i < chunk.length; i += 2) args.push(chunk[i + 1], chunk[i]);
    await redis.zadd(copy, ...args);
    moved += chunk.length / 2;
    if (chunk.length < 2 * CHUNK) break;
  }
  if (moved) await redis.rename(copy, key);
  return moved;
}

/** Lays out every set of `sizes` (key → members) with at least LAYOUT_MIN_MEMBERS members; returns the entries moved. */
export async function layOutLargeSets(redis: Redis, sizes: Map<string, number>): Promise<number> {
  let moved = 0;
  for (const [key, size] of sizes) if (size >= LAYOUT_MIN_MEMBERS) moved += await layOutInRankOrder(redis, key);
  return moved;
}
