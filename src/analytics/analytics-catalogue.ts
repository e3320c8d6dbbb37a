/**
 * What the analytics reads serve: their domains, metrics and scopes, stable ids the OpenAPI document lists as enums
 * and `analytics.listMetrics` answers.
 *
 * One domain, `accounts`: every column the rank replica holds (src/ranks/replica), which is what makes every answer an
 * index look-up in memory, plus level, friends and account age, small bounded integers kept as value → count
 * histograms per scope (histograms/). Two catalogue domains, `badges` and `apps`, whose population is the badge
 * definitions or the apps (catalogue-domains/: the values of the catalogue tables the update writer maintains).
 */
import { SCOPE_LEVELS, ScopeLevel } from '../ranks/rank-scopes';
import { CATALOGUE_DOMAINS, CATALOGUE_METRIC_IDS } from './catalogue-domains/catalogue-metrics';

export const ANALYTICS_DOMAINS = ['accounts', ...CATALOGUE_DOMAINS] as const;
export type AnalyticsDomain = (typeof ANALYTICS_DOMAINS)[number];

export interface MetricDefinition {
  id: string;
  /** The `accounts` column (and rank replica column) holding it. */
  column: string;
  /** What its values count. */
  kind: 'count' | 'minutes' | 'points' | 'amount' | 'level' | 'days';
  /** Kept by PopulationHistograms (histograms/) rather than the rank replica. */
  histogram?: 'level' | 'friends' | 'account_age';
}

/** The metrics of the `accounts` domain, by id (the board names where a board is scored by the column). */
export const ACCOUNT_METRICS: readonly MetricDefinition[] = [
  { id: 'account_age', column: 'platform_created_at', kind: 'days', histogram: 'account_age' },
  { id: 'apps', column: 'apps', kind: 'count' },
  { id: 'awards_given', column: 'awards_given', kind: 'count' },
  { id: 'awards_received', column: 'awards_received', kind: 'count' },
  { id: 'badges', column: 'badges', kind: 'count' },
  { id: 'bans', column: 'bans', kind: 'count' },
  { id: 'donations', column: 'donated', kind: 'amount' },
  { id: 'foil_badges', column: 'foil_badges', kind: 'count' },
  { id: 'friends', column: 'friends', kind: 'count', histogram: 'friends' },
  { id: 'game_bans', column: 'game_bans', kind: 'count' },
  { id: 'level', column: 'level', kind: 'level', histogram: 'level' },
  { id: 'normal_badges', column: 'normal_badges', kind: 'count' },
  { id: 'playtime', column: 'playtime', kind: 'minutes' },
  { id: 'points_given', column: 'points_given', kind: 'points' },
  { id: 'points_received', column: 'points_received', kind: 'points' },
  { id: 'site_score', column: 'site_score', kind: 'points' },
  { id: 'vac_bans', column: 'vac_bans', kind: 'count' },
  { id: 'xp', column: 'xp', kind: 'points' },
];

/** Every metric id of every domain (the OpenAPI enum; which domain has which: analytics.listMetrics). */
export const ANALYTICS_METRIC_IDS = [...new Set([...ACCOUNT_METRICS.map((metric) => metric.id), ...CATALOGUE_METRIC_IDS])];
/** The account metrics' ids (getMyPercentiles answers one percentile per account metric). */
export const ACCOUNT_METRIC_IDS = ACCOUNT_METRICS.map((metric) => metric.id);

export const ANALYTICS_SCOPES = SCOPE_LEVELS;
export type AnalyticsScope = ScopeLevel;

/** Each scope: the account column it groups by and what its `scope_value` names. */
export const SCOPE_DEFINITIONS: readonly { id: AnalyticsScope; column: string; valueType: string }[] = [
  { id: 'global', column: '', valueType: 'none' },
  { id: 'region', column: 'region', valueType: 'region name' },
  { id: 'country', column: 'country_code', valueType: 'country name or ISO 3166-1 alpha-2 code' },
  { id: 'state', column: 'state_name', valueType: 'country (name or code) | state name' },
  { id: 'city', column: 'city_name', valueType: 'country (name or code) | state name | city name' },
];

export function metricOf(id: string): MetricDefinition | undefined {
  return ACCOUNT_METRICS.find((metric) => metric.id === id);
}

/**
 * The SQL value of a metric for an `accounts a` row on the UTC day `day` (an SQL date expression): the column, or for
 * account_age the whole days from the creation day to `day` (null when the creation time is unknown).
 */
export function metricValueSql(metric: MetricDefinition, day: string): string {
  return metric.histogram === 'account_age'
    ? // greatest() skips nulls: the CASE keeps an unknown creation time null.
      `CASE WHEN a.platform_created_at IS NOT NULL THEN greatest(0, ${day} - (a.platform_created_at AT TIME ZONE 'UTC')::date) END`
    : `a.${metric.column}`;
}
