import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { UpdateProgressService } from '../updates/update-progress.service';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Buckets outlive the longest window (30 days) by a margin. */
const RETENTION_SECONDS = 32 * 86_400;

export type ViewWindow = '24h' | '7d' | '30d';

export interface ViewCounts {
  unique: number;
  total: number;
}

/**
 * One view: per-hour and per-day counters and HyperLogLogs of viewers for the account, and per-bucket
 * trending sets (total views, and views by a viewer new to that bucket). Returns nothing: fire and forget.
 */
const RECORD_VIEW = `
for i = 0, 1 do
  local base = i * 4
  redis.call('INCR', KEYS[base + 1]); redis.call('EXPIRE', KEYS[base + 1], ARGV[3])
  local fresh = redis.call('PFADD', KEYS[base + 2], ARGV[2]); redis.call('EXPIRE', KEYS[base + 2], ARGV[3])
  redis.call('ZINCRBY', KEYS[base + 3], 1, ARGV[1]); redis.call('EXPIRE', KEYS[base + 3], ARGV[3])
  if fresh == 1 then redis.call('ZINCRBY', KEYS[base + 4], 1, ARGV[1]) end
  redis.call('EXPIRE', KEYS[base + 4], ARGV[3])
end
return 1`;

/**
 * Profile views, kept in Redis: `account.getViewStats` (unique and total over 24 h, 7 d, 30 d), the
 * `account-view-tick` event and `account.getTrending`. A viewer is the client's `X-Visitor-Id`, else a
 * hash of its address and user agent; 24 h windows use hourly buckets, 7 d and 30 d daily ones.
 */
@Injectable()
export class AccountViewsService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly progress: UpdateProgressService,
  ) {}

  static visitor(visitorId: string | undefined, ip: string, userAgent: string | undefined): string {
    if (visitorId && /^[A-Za-z0-9._:-]{1,64}$/.test(visitorId)) return `v:${visitorId}`;
    return `h:${createHash('sha256')
      .update(`${ip}|${userAgent ?? ''}`)
      .digest('base64url')
      .slice(0, 22)}`;
  }

  async record(accountId: number, visitor: string, at = new Date()): Promise<void> {
    const hour = this.bucket('h', at);
    const day = this.bucket('d', at);
    const keys = [hour, day].flatMap((bucket) => [
      this.key('total', bucket, accountId),
      this.key('viewers', bucket, accountId),
      this.key('trending-total', bucket),
      this.key('trending-unique', bucket),
    ]);
    await this.redis.eval(RECORD_VIEW, keys.length, ...keys, accountId, visitor, RETENTION_SECONDS);
    await this.redis.publish(this.progress.channel, JSON.stringify({ type: 'view', accountId, totalDelta: 1 }));
  }

  async counts(accountId: number, window: ViewWindow, now = new Date()): Promise<ViewCounts> {
    const buckets = this.buckets(window, now);
    const [totals, unique] = await Promise.all([
      this.redis.mget(buckets.map((bucket) => this.key('total', bucket, accountId))),
      this.redis.pfcount(...buckets.map((bucket) => this.key('viewers', bucket, accountId))),
    ]);
    return { unique, total: totals.reduce((sum, value) => sum + Number(value ?? 0), 0) };
  }

  /** Accounts with the most distinct viewers per bucket, summed over the window; then exact counts for each. */
  async trending(window: ViewWindow, limit: number, now = new Date()): Promise<({ accountId: number } & ViewCounts)[]> {
    const buckets = this.buckets(window, now);
    const union = this.key('trending-union', window, now.getTime(), Math.random().toString(36).slice(2));
    const [, [, top]] = (await this.redis
      .multi()
      .zunionstore(union, buckets.length, ...buckets.map((bucket) => this.key('trending-unique', bucket)))
      .zrevrange(union, 0, limit - 1)
      .del(union)
      .exec()) as [unknown, [null, string[]], unknown];
    return Promise.all(top.map(async (id) => ({ accountId: Number(id), ...(await this.counts(Number(id), window, now)) })));
  }

  private buckets(window: ViewWindow, now: Date): string[] {
    const [unit, count, step] = window === '24h' ? (['h', 24, HOUR_MS] as const) : (['d', window === '7d' ? 7 : 30, DAY_MS] as const);
    return Array.from({ length: count }, (_, i) => this.bucket(unit, new Date(now.getTime() - i * step)));
  }

  private bucket(unit: 'h' | 'd', at: Date): string {
    return `${unit}${at.toISOString().slice(0, unit === 'h' ? 13 : 10)}`;
  }

  private key(...parts: (string | number)[]): string {
    return redisKey(this.config, 'views', ...parts);
  }
}
