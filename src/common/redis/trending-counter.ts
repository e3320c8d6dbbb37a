import Redis from 'ioredis';
import { moveLegacyHits } from './hit-totals-upgrade';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Buckets outlive the longest window (30 days) by a margin. */
const RETENTION_SECONDS = 32 * 86_400;

export const TRENDING_WINDOWS = ['24h', '7d', '30d'] as const;
export type TrendingWindow = (typeof TRENDING_WINDOWS)[number];

/**
 * A bucket's hits per member: one hash per bucket (no counter key per member and bucket: at a million profiles those
 * were 0.6 M keys, ~100 MB). Hits are only ever read by member (a member's counts, a top list's totals), never ranked,
 * so a hash, not a sorted set: raising a member's score in a sorted set of the day's viewed profiles cost Redis
 * ~10 µs (its skiplist re-ordered), HINCRBY ~1 (docs/performance-history.md, "Hits in hashes"). Named apart from
 * the sorted sets the buckets' hits were once kept in (LEGACY_HITS_KEY, hit-totals-upgrade.ts).
 */
export const HITS_KEY = 'hits';
export const LEGACY_HITS_KEY = 'rank-total';
/**
 * The set of `<bucket>|<member>` whose counts changed since a rollup last copied them elsewhere (see ViewRollup, the
 * profile views' copy in PostgreSQL); written only by a counter made with `trackChanges`.
 */
export const CHANGED_KEY = 'changed';

export interface TrendingCounts {
  unique: number;
  total: number;
}

/**
 * One hit in the hour and day buckets: a HyperLogLog of visitors per member, per bucket a hash of each member's hits
 * (HITS_KEY), and per bucket the members ranked by hits of visitors new to that bucket ("rank-unique").
 */
const RECORD_HIT = `
for i = 0, 1 do
  local base = i * 3
  local fresh = redis.call('PFADD', KEYS[base + 1], ARGV[2]); redis.call('EXPIRE', KEYS[base + 1], ARGV[3])
  redis.call('HINCRBY', KEYS[base + 2], ARGV[1], 1); redis.call('EXPIRE', KEYS[base + 2], ARGV[3])
  if fresh == 1 then redis.call('ZINCRBY', KEYS[base + 3], 1, ARGV[1]) end
  redis.call('EXPIRE', KEYS[base + 3], ARGV[3])
end
if KEYS[7] then
  redis.call('SADD', KEYS[7], ARGV[4] .. '|' .. ARGV[1], ARGV[5] .. '|' .. ARGV[1]); redis.call('EXPIRE', KEYS[7], ARGV[3])
end
return 1`;

/**
 * Hits and distinct visitors per member (a profile, a search query) over sliding windows, in Redis: 24 h from
 * hourly buckets, 7 d and 30 d from daily ones. Rankings sum each bucket's distinct visitors; the counts of a
 * member are exact unions over the window.
 */
export class TrendingCounter {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly options: { trackChanges?: boolean } = {},
  ) {}

  async hit(member: string, visitor: string, at = new Date()): Promise<void> {
    const buckets = [this.bucket('h', at), this.bucket('d', at)];
    const keys = buckets.flatMap((bucket) => [
      this.key('visitors', bucket, member),
      this.key(HITS_KEY, bucket),
      this.key('rank-unique', bucket),
    ]);
    if (this.options.trackChanges) keys.push(this.key(CHANGED_KEY));
    await this.redis.eval(RECORD_HIT, keys.length, ...keys, member, visitor, RETENTION_SECONDS, ...buckets);
  }

  /**
   * Moves the hits an earlier version kept in sorted sets (LEGACY_HITS_KEY) into this counter's hashes, for every
   * bucket that can still hold some (hit-totals-upgrade.ts); returns how many sets it moved. Called by the counter's
   * owner at boot.
   */
  moveLegacyHits(now = new Date()): Promise<number> {
    const names = new Set<string>();
    for (let hour = -1; hour <= RETENTION_SECONDS / 3600 + 24; hour++) {
      const at = new Date(now.getTime() - hour * HOUR_MS);
      names.add(this.bucket('h', at)).add(this.bucket('d', at));
    }
    return moveLegacyHits(
      this.redis,
      [...names].map((bucket) => [this.key(LEGACY_HITS_KEY, bucket), this.key(HITS_KEY, bucket)]),
    );
  }

  async counts(member: string, window: TrendingWindow, now = new Date()): Promise<TrendingCounts> {
    const buckets = this.buckets(window, now);
    const pipeline = this.redis.pipeline();
    for (const bucket of buckets) pipeline.hget(this.key(HITS_KEY, bucket), member);
    pipeline.pfcount(...buckets.map((bucket) => this.key('visitors', bucket, member)));
    const replies = ((await pipeline.exec()) ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    });
    const unique = Number(replies.pop());
    return { unique, total: replies.reduce((sum: number, value) => sum + Number(value ?? 0), 0) };
  }

  /** The `limit` members with the most distinct visitors (summed per bucket), with their exact counts. */
  async top(window: TrendingWindow, limit: number, now = new Date()): Promise<({ member: string } & TrendingCounts)[]> {
    const buckets = this.buckets(window, now);
    const union = this.key('union', window, now.getTime(), Math.random().toString(36).slice(2));
    const [, [, members]] = (await this.redis
      .multi()
      .zunionstore(union, buckets.length, ...buckets.map((bucket) => this.key('rank-unique', bucket)))
      .zrevrange(union, 0, limit - 1)
      .del(union)
      .exec()) as [unknown, [null, string[]], unknown];
    const counted = await Promise.all(members.map(async (member) => ({ member, ...(await this.counts(member, window, now)) })));
    return counted.sort((a, b) => b.unique - a.unique || b.total - a.total || a.member.localeCompare(b.member));
  }

  private buckets(window: TrendingWindow, now: Date): string[] {
    const [unit, count, step] = window === '24h' ? (['h', 24, HOUR_MS] as const) : (['d', window === '7d' ? 7 : 30, DAY_MS] as const);
    return Array.from({ length: count }, (_, i) => this.bucket(unit, new Date(now.getTime() - i * step)));
  }

  private bucket(unit: 'h' | 'd', at: Date): string {
    return `${unit}${at.toISOString().slice(0, unit === 'h' ? 13 : 10)}`;
  }

  private key(...parts: (string | number)[]): string {
    return [this.namespace, ...parts].join(':');
  }
}
