import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JsonLogger } from '../../common/logging/json-logger';
import { unlinkMatching } from '../../common/redis/redis-batch';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { CHANGED_KEY, HITS_KEY, TrendingCounter, TrendingCounts, TrendingWindow } from '../../common/redis/trending-counter';
import { DerivedState, DerivedStateKeeper } from '../../derived/derived-state';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How long one computed top list is served (documented: trending lists are at most a second old). */
export const TOP_CACHE_MS = 1_000;
/** As the TrendingCounter's buckets: they outlive the longest window (30 days) by a margin. */
const RETENTION_SECONDS = 32 * 86_400;

/** A computed top list, shared by the requests that read it: never modified. */
type TopList = ({ member: string } & TrendingCounts)[];

/** The buckets of a window: its unit, how many, and the step between them. */
const WINDOWS: Record<TrendingWindow, { unit: 'h' | 'd'; count: number; step: number }> = {
  '24h': { unit: 'h', count: 24, step: HOUR_MS },
  '7d': { unit: 'd', count: 7, step: DAY_MS },
  '30d': { unit: 'd', count: 30, step: DAY_MS },
};

/**
 * TrendingCounter's hit (same keys, same buckets) for a batch of hits in one hour, except that a hit counts only when
 * its visitor is new to the bucket (PFADD altered the visitors' HyperLogLog): a viewer counts once per profile per
 * hour in the hourly buckets and once per day in the daily ones, so repeating a view raises nothing (its
 * `account-view-tick` is not sent either). When a visitor is new to a bucket, the rolling rankings that cover that
 * bucket and exist are raised too. KEYS: the hour's hits (HITS_KEY) and
 * "rank-unique", the day's, then the rolling rankings (for the hour bucket first: ARGV[2] of them; ARGV[3] in all),
 * then per hit its visitor sets (hour, day) and, when ARGV[4] is '1', a key whose existence the script reports (the
 * profile's replay log: is anyone following it?). ARGV: [1] TTL, [2], [3], [4], then per hit its member and visitor.
 * The shared keys' TTLs are set (and the rankings' existence read) once per batch, not once per hit. Returns the
 * 0-based positions of the hits whose reported key exists. The last KEY is the set of changed `<bucket>|<member>`
 * (CHANGED_KEY: what ViewRollup copies into PostgreSQL next), one entry per profile and bucket of the batch.
 */
const RECORD_HITS = `
local ttl, hourly, last = ARGV[1], tonumber(ARGV[2]), 4 + tonumber(ARGV[3])
local watching = ARGV[4] == '1'
local per = watching and 3 or 2
local raised = { {}, {} }
for k = 5, last do
  if redis.call('EXISTS', KEYS[k]) == 1 then
    local list = raised[(k - 5 < hourly) and 1 or 2]
    list[#list + 1] = KEYS[k]
  end
end
local hits = (#ARGV - 4) / 2
local watched = {}
for h = 0, hits - 1 do
  local member, visitor = ARGV[5 + 2 * h], ARGV[6 + 2 * h]
  local counted = false
  for b = 1, 2 do
    local visitors = KEYS[last + per * h + b]
    local fresh = redis.call('PFADD', visitors, visitor)
    redis.call('EXPIRE', visitors, ttl)
    if fresh == 1 then
      redis.call('HINCRBY', KEYS[2 * b - 1], member, 1)
      redis.call('ZINCRBY', KEYS[2 * b], 1, member)
      for _, key in ipairs(raised[b]) do redis.call('ZINCRBY', key, 1, member) end
      if b == 1 then counted = true end
    end
  end
  if counted and watching and redis.call('EXISTS', KEYS[last + per * h + 3]) == 1 then watched[#watched + 1] = h end
end
for k = 1, 4 do redis.call('EXPIRE', KEYS[k], ttl) end
local changed, hour, day, seen = KEYS[#KEYS], string.match(KEYS[1], ':([^:]+)$'), string.match(KEYS[3], ':([^:]+)$'), {}
for h = 0, hits - 1 do
  local member = ARGV[5 + 2 * h]
  if not seen[member] then
    seen[member] = true
    redis.call('SADD', changed, hour .. '|' .. member, day .. '|' .. member)
  end
end
redis.call('EXPIRE', changed, ttl)
return watched`;

/** One profile view: the profile (member), its viewer, and when. */
export interface ViewHit {
  member: string;
  visitor: string;
  at: Date;
}

/**
 * The top of a window with each member's exact counts, in one step (KEYS[1]: the rolling ranking, then the window's
 * "rank-unique" buckets; ARGV: TTL of a new ranking (ms), limit, the key prefix, then the window's bucket names).
 * Builds the ranking from the buckets unless it exists, reads its top `limit`, and per member sums its hits (its
 * fields in the buckets' hits hashes) and counts the union of its visitor sets over the buckets (what
 * TrendingCounter.counts reads). The per-member keys are named here from the prefix (one Redis, not a cluster).
 */
const TOP = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZUNIONSTORE', KEYS[1], #KEYS - 1, unpack(KEYS, 2))
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local members = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
local out = {}
for _, member in ipairs(members) do
  local visitors, total = {}, 0
  for i = 4, #ARGV do
    visitors[#visitors + 1] = ARGV[3] .. ':visitors:' .. ARGV[i] .. ':' .. member
    total = total + (tonumber(redis.call('HGET', ARGV[3] .. ':${HITS_KEY}:' .. ARGV[i], member)) or 0)
  end
  out[#out + 1] = member
  out[#out + 1] = redis.call('PFCOUNT', unpack(visitors))
  out[#out + 1] = total
end
return out`;

/**
 * Profile views for `account.getTrending`, ranked without a union of the window's buckets per request.
 *
 * The ranking of a window is the sum of each bucket's distinct visitors per profile (TrendingCounter's "rank-unique"
 * sets). Instead of summing 7 or 30 bucket sets on every request (a union that grows with the viewed profiles), a
 * *rolling* set per window and current bucket holds that sum: built once from the buckets by the first reader in a
 * new hour (24h) or day (7d, 30d), then raised by every hit that is new to a bucket it covers, atomically with the
 * hit. So it always equals the union a request would have computed. A request reads its top `limit` members and
 * their exact counts in one script: O(limit · buckets), not O(viewed profiles).
 *
 * A hit raises the ranking of its own bucket and of the next (a process whose clock runs slightly ahead may already
 * have built it). Rolling sets expire with their window's next bucket but one; `rebuild` drops them (a seed writes
 * hits without them) and the next read builds them again.
 */
@Injectable()
@DerivedState('view-trends')
export class ViewTrends implements DerivedStateKeeper, OnApplicationBootstrap {
  private readonly logger = new JsonLogger('ViewTrends');
  private readonly namespace: string;
  readonly counter: TrendingCounter;
  private lastTop: { text: string; list: TopList } | null = null;
  private readonly computing = new Map<string, Promise<TopList>>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.namespace = redisKey(config, 'views');
    this.counter = new TrendingCounter(redis, this.namespace, { trackChanges: true });
    // By EVALSHA (loaded once per connection): EVAL sent the whole script, and Redis hashed it, on every view.
    redis.defineCommand('badgeStatsRecordViewHits', { lua: RECORD_HITS });
  }

  /** Moves an earlier version's hit sets into hashes, in the background (hit-totals-upgrade.ts). */
  onApplicationBootstrap(): void {
    this.counter.moveLegacyHits().catch((error: unknown) => this.logger.warn({ msg: 'view hits not moved yet', error: String(error) }));
  }

  /**
   * Counts a batch of views: one script per hour the batch spans (almost always one). With `watchKeys` (one per hit),
   * the same script reports which of them exist: resolves to the positions of those hits in `hits`.
   */
  async hitMany(hits: ViewHit[], watchKeys?: string[]): Promise<number[]> {
    const byHour = new Map<string, number[]>();
    hits.forEach((hit, at) => {
      const hour = this.bucket('h', hit.at);
      const group = byHour.get(hour);
      if (group) group.push(at);
      else byHour.set(hour, [at]);
    });
    const client = this.redis as Redis & Record<string, (...args: (string | number)[]) => Promise<number[]>>;
    const written = [...byHour.values()].map(async (group) => {
      const at = hits[group[0]].at;
      const [hour, day] = [this.bucket('h', at), this.bucket('d', at)];
      const next = (window: TrendingWindow) => new Date(at.getTime() + WINDOWS[window].step);
      const rollings = [
        this.rolling('24h', at),
        this.rolling('24h', next('24h')),
        ...(['7d', '30d'] as const).flatMap((window) => [this.rolling(window, at), this.rolling(window, next(window))]),
      ];
      const keys = [this.key(HITS_KEY, hour), this.key('rank-unique', hour), this.key(HITS_KEY, day), this.key('rank-unique', day)];
      keys.push(...rollings);
      const args: string[] = [];
      for (const i of group) {
        const { member, visitor } = hits[i];
        keys.push(this.key('visitors', hour, member), this.key('visitors', day, member));
        if (watchKeys) keys.push(watchKeys[i]);
        args.push(member, visitor);
      }
      keys.push(this.key(CHANGED_KEY));
      const watched = await client.badgeStatsRecordViewHits(
        keys.length,
        ...keys,
        RETENTION_SECONDS,
        2,
        rollings.length,
        watchKeys ? '1' : '0',
        ...args,
      );
      return watched.map((h) => group[h]);
    });
    return (await Promise.all(written)).flat().sort((a, b) => a - b);
  }

  counts(member: string, window: TrendingWindow): Promise<TrendingCounts> {
    return this.counter.counts(member, window);
  }

  /**
   * The `limit` members with the most distinct visitors (summed per bucket), with their exact counts. The answer is
   * shared for TOP_CACHE_MS across requests and processes: the exact counts merge up to 30 visitor sets per member
   * (~50 µs each in Redis), the one part of a request that costs more than the ranking itself.
   */
  async top(window: TrendingWindow, limit: number): Promise<TopList> {
    const cacheKey = this.key('top', window, limit);
    const cached = await this.redis.get(cacheKey);
    if (cached) {
      // The same shared list is read by every request of its second: parsed once per process.
      if (this.lastTop?.text !== cached) this.lastTop = { text: cached, list: JSON.parse(cached) as TopList };
      return this.lastTop.list;
    }
    // Requests that find the list expired together wait for one computation (they arrived within the same second).
    let computing = this.computing.get(cacheKey);
    if (!computing) {
      computing = this.computeTop(window, limit, new Date())
        .then(async (top) => {
          await this.redis.set(cacheKey, JSON.stringify(top), 'PX', TOP_CACHE_MS);
          return top;
        })
        .finally(() => this.computing.delete(cacheKey));
      this.computing.set(cacheKey, computing);
    }
    return computing;
  }

  async computeTop(window: TrendingWindow, limit: number, now: Date): Promise<TopList> {
    const { count, step, unit } = WINDOWS[window];
    const buckets = Array.from({ length: count }, (_, i) => this.bucket(unit, new Date(now.getTime() - i * step)));
    const rankings = buckets.map((bucket) => this.key('rank-unique', bucket));
    // Kept until the window's bucket after next starts: long enough for late hits, short enough to cost little.
    const ttl = 3 * step;
    const flat = (await this.redis.eval(
      TOP,
      1 + rankings.length,
      this.rolling(window, now),
      ...rankings,
      ttl,
      limit,
      this.namespace,
      ...buckets,
    )) as (string | number)[];
    const counted: ({ member: string } & TrendingCounts)[] = [];
    for (let i = 0; i < flat.length; i += 3)
      counted.push({ member: String(flat[i]), unique: Number(flat[i + 1]), total: Number(flat[i + 2]) });
    return counted.sort((a, b) => b.unique - a.unique || b.total - a.total || a.member.localeCompare(b.member));
  }

  /** Drops every rolling ranking (and shared top list); each is built again from the buckets by its next read. */
  async rebuild(): Promise<void> {
    for (const kind of ['rolling', 'top']) await unlinkMatching(this.redis, this.key(kind, '*'));
  }

  /** The rolling ranking of a window ending in the bucket of `at`. */
  private rolling(window: TrendingWindow, at: Date): string {
    return this.key('rolling', window, this.bucket(WINDOWS[window].unit, at));
  }

  // Bucket and key names exactly as TrendingCounter writes them (its hit and counts read the same keys).
  private bucket(unit: 'h' | 'd', at: Date): string {
    return `${unit}${at.toISOString().slice(0, unit === 'h' ? 13 : 10)}`;
  }

  private key(...parts: (string | number)[]): string {
    return [this.namespace, ...parts].join(':');
  }
}
