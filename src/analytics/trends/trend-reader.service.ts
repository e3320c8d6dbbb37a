import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AnalyticsTrendPoint } from '../dto/analytics.dto';
import { dayOf } from './trend-snapshots';

const WINDOW_DAYS: Record<string, number> = { '7d': 7, '30d': 30, '90d': 90 };

/** analytics.getTrend: the daily snapshots of a window (the last N UTC days, today included), one index range. */
@Injectable()
export class TrendReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async points(metric: string, scopeKey: string, window: string, now = Date.now()): Promise<AnalyticsTrendPoint[]> {
    const days = WINDOW_DAYS[window];
    const rows: { date: string; count: number; p50: number; p90: number; p99: number }[] = await this.dataSource.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS date, count, p50, p90, p99 FROM analytics_daily_quantiles
        WHERE metric = $1 AND scope_key = $2 AND day > $3::date - $4::int AND day <= $3::date ORDER BY day`,
      [metric, scopeKey, dayOf(now), days],
    );
    return rows;
  }
}
