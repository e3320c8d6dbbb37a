import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThanOrEqual, Repository } from 'typeorm';
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

export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** Counts API-key requests per key, hour and outcome, and summarises them for developer-app analytics. */
@Injectable()
export class ApiKeyUsageService {
  constructor(@InjectRepository(ApiKeyUsageEntity) private readonly usage: Repository<ApiKeyUsageEntity>) {}

  async record(keyId: string, outcome: AnalyticsOutcome, at = new Date()): Promise<void> {
    await this.usage.query(
      `INSERT INTO api_key_usage (key_id, hour, outcome, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (key_id, hour, outcome) DO UPDATE SET count = api_key_usage.count + 1`,
      [keyId, hourOf(at), outcome],
    );
  }

  /** Analytics per key id plus the total over all of them, for the 24 hourly buckets ending with the current one. */
  async analytics(keyIds: string[], now = new Date()): Promise<{ perKey: Map<string, UsageAnalytics>; total: UsageAnalytics }> {
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
