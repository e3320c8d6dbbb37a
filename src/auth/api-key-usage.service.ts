import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { In, MoreThanOrEqual, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { AnalyticsOutcome, ApiKeyUsageEntity } from './entities/api-key-usage.entity';

export interface UsageAnalytics {
  last24Hours: {
    totalRequests: number;
    successfulRequests: number;
    failedRequests: number;
    successRate: number;
    outcomeBreakdown: { outcome: AnalyticsOutcome; count: number }[];
  };
  timeSeries: { hourly: { time: Date; outcome: AnalyticsOutcome; count: number }[] };
}

const HOUR_MS = 3_600_000;
const FLUSH_INTERVAL_MS = 5_000;

export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** The latest hour written as text: every counted request names its hour, and Date#toISOString is no cheap call. */
let writtenHour = { start: NaN, text: '' };

/** hourOf as ISO text. */
function hourText(at: Date): string {
  const start = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
  if (start !== writtenHour.start) writtenHour = { start, text: new Date(start).toISOString() };
  return writtenHour.text;
}

/**
 * Counts API-key requests per key, hour and outcome. A request only adds to a Redis hash (in the same round
 * trip as the rate limit); the counts are folded into PostgreSQL every few seconds, on shutdown and before
 * analytics are read, so the hot path never writes to the database.
 */
@Injectable()
export class ApiKeyUsageService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('ApiKeyUsage');
  private timer: NodeJS.Timeout | null = null;
  /** While a store is away every flush fails; one warning per streak is enough. */
  private failing = false;

  constructor(
    @InjectRepository(ApiKeyUsageEntity) private readonly usage: Repository<ApiKeyUsageEntity>,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(
      () =>
        void this.flush().then(
          () => (this.failing = false),
          (error: unknown) => {
            if (!this.failing) this.logger.warn({ msg: 'usage flush failed; retrying every few seconds', error: String(error) });
            this.failing = true;
          },
        ),
      FLUSH_INTERVAL_MS,
    );
    this.timer.unref();
  }

  /** The last counts reach PostgreSQL before its connection closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch((error: unknown) => this.logger.warn({ msg: 'usage flush failed', error: String(error) }));
  }

  /** The Redis hash of counts not yet in PostgreSQL; its fields are `<keyId>|<hour ISO>|<outcome>`. */
  get pendingKey(): string {
    return redisKey(this.config, 'usage', 'pending');
  }

  private get batchesKey(): string {
    return redisKey(this.config, 'usage', 'batches');
  }

  /** The field prefix of a key's counts in the current hour; the outcome completes it. */
  static fieldPrefix(keyId: string, at = new Date()): string {
    return `${keyId}|${hourText(at)}|`;
  }

  async record(keyId: string, outcome: AnalyticsOutcome, at = new Date()): Promise<void> {
    await this.redis.hincrby(this.pendingKey, `${ApiKeyUsageService.fieldPrefix(keyId, at)}${outcome}`, 1);
  }

  /**
   * Moves the pending counts to PostgreSQL. RENAME makes the hand-over atomic across processes; a batch left
   * behind by a crash between rename and upsert is picked up by the next flush.
   */
  async flush(): Promise<void> {
    const batch = redisKey(this.config, 'usage', 'flushing', randomUUID());
    // Within MULTI a failing RENAME (nothing pending) does not stop the SADD; an empty batch is cleared below.
    await this.redis.multi().rename(this.pendingKey, batch).sadd(this.batchesKey, batch).exec();
    for (const key of await this.redis.smembers(this.batchesKey)) {
      const counts = await this.redis.hgetall(key);
      const rows = Object.entries(counts).map(
        ([field, count]) => [...field.split('|'), Number(count)] as [string, string, AnalyticsOutcome, number],
      );
      if (rows.length) {
        await this.usage.query(
          `INSERT INTO api_key_usage (key_id, hour, outcome, count)
           SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[])
           ON CONFLICT (key_id, hour, outcome) DO UPDATE SET count = api_key_usage.count + EXCLUDED.count`,
          [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
        );
      }
      await this.redis.multi().del(key).srem(this.batchesKey, key).exec();
    }
  }

  /** Analytics per key id plus the total over all of them, for the 24 hourly buckets ending with the current one. */
  async analytics(keyIds: string[], now = new Date()): Promise<{ perKey: Map<string, UsageAnalytics>; total: UsageAnalytics }> {
    await this.flush();
    const since = new Date(hourOf(now).getTime() - 23 * HOUR_MS);
    const rows = keyIds.length
      ? await this.usage.find({ where: { keyId: In(keyIds), hour: MoreThanOrEqual(since) }, order: { hour: 'ASC', outcome: 'ASC' } })
      : [];
    const perKey = new Map(keyIds.map((id) => [id, summarise(rows.filter((row) => row.keyId === id))]));
    return { perKey, total: summarise(rows) };
  }
}

function summarise(rows: ApiKeyUsageEntity[]): UsageAnalytics {
  const byOutcome = new Map<AnalyticsOutcome, number>();
  const byHour = new Map<string, { time: Date; outcome: AnalyticsOutcome; count: number }>();
  for (const row of rows) {
    byOutcome.set(row.outcome, (byOutcome.get(row.outcome) ?? 0) + row.count);
    const key = `${row.hour.toISOString()}|${row.outcome}`;
    const point = byHour.get(key) ?? { time: row.hour, outcome: row.outcome, count: 0 };
    point.count += row.count;
    byHour.set(key, point);
  }
  const total = [...byOutcome.values()].reduce((sum, count) => sum + count, 0);
  const successful = byOutcome.get('VALID') ?? 0;
  return {
    last24Hours: {
      totalRequests: total,
      successfulRequests: successful,
      failedRequests: total - successful,
      successRate: total === 0 ? 0 : Math.round((successful / total) * 1000) / 10,
      outcomeBreakdown: [...byOutcome.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([outcome, count]) => ({ outcome, count })),
    },
    timeSeries: {
      hourly: [...byHour.values()].sort((a, b) => a.time.getTime() - b.time.getTime() || a.outcome.localeCompare(b.outcome)),
    },
  };
}
