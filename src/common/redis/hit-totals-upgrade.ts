/**
 * # Hit totals moved from sorted sets to hashes
 *
 * The trending counters (profile views, searches: trending-counter.ts) once kept a bucket's hits per member as the
 * scores of a sorted set named `<namespace>:rank-total:<bucket>`; they now keep them in a hash named
 * `<namespace>:hits:<bucket>`. A Redis written by an earlier version still holds such sets for the buckets of the
 * last 32 days (they expire with their buckets), which no read looks at any more. Each owner of a counter moves its
 * own at boot (TrendingCounter.moveLegacyHits, in the background): the names a bucket of those days can have are
 * looked up (EXISTS, one pipeline: ~800 names, not a scan of the keyspace), and each set found is emptied into its
 * hash a chunk at a time, each chunk popped and added by one script, so that processes booting together never count
 * a hit twice and hits written meanwhile add up. The hash keeps the later of the two expiries. Until it is through, a
 * read misses the hits not moved yet.
 */
import Redis from 'ioredis';

/** Members moved per script run: a chunk holds Redis for well under a millisecond. */
const CHUNK = 500;

/** KEYS: [1] the sorted set, [2] its hash. ARGV: [1] chunk size. Returns how many members it moved. */
const MOVE_CHUNK = `
local ttl = redis.call('PTTL', KEYS[1])
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
for i = 1, #popped, 2 do
  redis.call('HINCRBY', KEYS[2], popped[i], math.floor(tonumber(popped[i + 1]) + 0.5))
end
if #popped > 0 and ttl > 0 and redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
return #popped / 2`;

/**
 * Moves the legacy sets among `pairs` ([sorted set, hash] names) into their hashes; returns how many it found. The
 * names are checked in one pipeline; a set another process is emptying at the same time is shared chunk by chunk.
 */
export async function moveLegacyHits(redis: Redis, pairs: [string, string][]): Promise<number> {
  if (!pairs.length) return 0;
  const pipeline = redis.pipeline();
  for (const [legacy] of pairs) pipeline.exists(legacy);
  const found = ((await pipeline.exec()) ?? []).map(([error, exists]) => {
    if (error) throw error;
    return exists === 1;
  });
  const present = pairs.filter((_, i) => found[i]);
  for (const [legacy, hash] of present) {
    let moved: number;
    do moved = Number(await redis.eval(MOVE_CHUNK, 2, legacy, hash, CHUNK));
    while (moved === CHUNK);
  }
  return present.length;
}
