import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One day's quantiles of one metric in one scope (analytics.getTrend): written by the worker once a day
 * (TrendSnapshotter) and by the seed for every day it seeds (seeded-trends.ts). The scope is a rank scope key (`g`,
 * `r:<region>`, `c:<country>`, lower-cased: ranks/rank-scopes.ts). Keyed so that a trend read is one index range.
 */
@Entity('analytics_daily_quantiles')
export class AnalyticsDailyQuantilesEntity {
  @PrimaryColumn('text')
  metric: string;

  @PrimaryColumn('text')
  scopeKey: string;

  @PrimaryColumn('date')
  day: string;

  /** Accounts in the scope that day (refreshed ones, those at 0 included). */
  @Column('integer')
  count: number;

  @Column('integer')
  p50: number;

  @Column('integer')
  p90: number;

  @Column('integer')
  p99: number;
}
