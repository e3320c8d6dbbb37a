import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { AnalyticsTrendPoint } from '../dto/analytics.dto';
import { dayOf } from './trend-snapshots';

const WINDOW_DAYS: Record<string, number> = { '7d': 7, '30d': 30, '90d': 90 };

/**
 * How long a window's points are served from the process. Snapshots are written once a day (TrendSnapshotter), so a
 * minute's reuse changes nothing a client could see but the first minute of a new day's point; at a million accounts
 * the statement per request was the heaviest of the analytics reads (0.6–0.9 ms of API CPU and ~0.2 ms of
 * PostgreSQL's: docs/performance.md).
 */
const POINTS_HELD_MS = 60_000;
/** (metric, scope, window) triples held: 18 metrics × 3 windows × the ~100 scopes most asked for. */
const POINTS_HELD = 5_000;

/** analytics.getTrend: the daily snapshots of a window (the last N UTC days, today included), one index range. */
@Injectable()
export class TrendReader {
  private readonly held = new LRUCache<string, Promise<AnalyticsTrendPoint[]>>({ max: POINTS_HELD, ttl: POINTS_HELD_MS });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The window's points; concurrent askers of the same window share one statement. */
  points(metric: string, scopeKey: string, window: string, now = Date.now()): Promise<AnalyticsTrendPoint[]> {
    const day = dayOf(now);
    const key = `${metric}\t${scopeKey}\t${window}\t${day}`;
    let points = this.held.get(key);
    if (!points) {
      points = this.read(metric, scopeKey, WINDOW_DAYS[window], day);
      this.held.set(key, points);
      // A failed read is not kept: the next asker tries again.
      points.catch(() => this.held.delete(key));
    }
    return points;
  }

  private read(metric: string, scopeKey: string, days: number, day: string): Promise<AnalyticsTrendPoint[]> {
    return this.dataSource.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS date, count, p50, p90, p99 FROM analytics_daily_quantiles
        WHERE metric = $1 AND scope_key = $2 AND day > $3::date - $4::int AND day <= $3::date ORDER BY day`,
      [metric, scopeKey, day, days],
    );
  }
}
