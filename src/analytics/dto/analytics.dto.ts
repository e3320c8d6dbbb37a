import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCOUNT_METRIC_IDS, ANALYTICS_DOMAINS, ANALYTICS_METRIC_IDS, ANALYTICS_SCOPES } from '../analytics-catalogue';

export const AGGREGATIONS = ['avg', 'median', 'count'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const DIMENSIONS = ['country', 'region'] as const;
export const TREND_WINDOWS = ['7d', '30d', '90d'] as const;

const domain = () =>
  ApiProperty({
    enum: ANALYTICS_DOMAINS,
    example: 'accounts',
    description:
      'Analytics domain ID: accounts, or the catalogue domains badges and apps (one value per badge definition or app; global scope ' +
      'only). See analytics.listMetrics.',
  });
const metric = (description = 'Metric ID within the domain (see analytics.listMetrics for which domain has which).') =>
  ApiProperty({ enum: ANALYTICS_METRIC_IDS, example: 'xp', description });
const scope = () =>
  ApiProperty({
    enum: ANALYTICS_SCOPES,
    // The global scope: the one a body without scope_value may name.
    example: 'global',
    description: 'Scope ID within the domain (accounts: global, region, country, state, city; badges and apps: global).',
  });
const scopeValue = () =>
  ApiPropertyOptional({
    type: 'string',
    minLength: 1,
    maxLength: 200,
    example: 'DE',
    description:
      'Scope value, required for non-global scopes (ignored for global): a region name ("Europe"); a country name or ISO ' +
      'code ("Germany" / "DE"); a state as `country|state` ("DE|Bavaria"); a city as `country|state|city` ' +
      '("DE|Bavaria|Munich"). Names match as the location boards match them: case-insensitive.',
  });

export class AnalyticsGetDistributionRequestBody {
  @domain() domain: string;
  @metric() metric: string;
  @scope() scope: string;
  @scopeValue() scope_value?: string;
}

export class AnalyticsGetInequalityRequestBody extends AnalyticsGetDistributionRequestBody {}

export class AnalyticsGetBivariateRequestBody {
  @ApiProperty({ enum: AGGREGATIONS, example: 'avg', description: 'How to aggregate Y inside each X bucket.' }) agg: string;
  @domain() domain: string;
  @scope() scope: string;
  @scopeValue() scope_value?: string;
  @metric('Metric ID for the X axis (bucketed: see AnalyticsBivariateBucket.x_bucket).') x: string;
  @metric('Metric ID for the Y axis (aggregated within each X bucket).') y: string;
}

export class AnalyticsGetMetricByScopeRequestBody {
  @ApiProperty({ enum: AGGREGATIONS, example: 'avg', description: 'Aggregation applied within each dimension bucket.' }) agg: string;
  @ApiProperty({ enum: DIMENSIONS, example: 'country', description: 'Group rows by this dimension. One bucket per distinct value.' })
  dimension: string;
  @domain() domain: string;
  @metric() metric: string;
}

export class AnalyticsGetMyPercentilesRequestBody {
  @domain() domain: string;
  @scope() scope: string;
  @scopeValue() scope_value?: string;
}

export class AnalyticsGetTrendRequestBody {
  @domain() domain: string;
  @metric() metric: string;
  @ApiProperty({
    enum: ['global', 'region', 'country'],
    example: 'global',
    description: 'Scope ID: trends are kept for the global, region and country scopes.',
  })
  scope: string;
  @scopeValue() scope_value?: string;
  @ApiProperty({ enum: TREND_WINDOWS, example: '30d', description: 'Lookback window: the last 7, 30 or 90 days, today included.' })
  window: string;
}

const num = (description: string, example = 1) => ApiProperty({ type: 'number', example, description });
const int = (description: string, example = 1) => ApiProperty({ type: 'integer', format: 'int64', example, description });

export class AnalyticsBin {
  @int('Accounts whose value lies in [x_lower, x_upper).') count: number;
  @num('Lower edge (inclusive).', 1) x_lower: number;
  @num('Upper edge (exclusive).', 2) x_upper: number;
}

export class AnalyticsSummary {
  @int('Accounts in the scope (those at 0 included).', 1200) count: number;
  @num('Highest value.', 9000) max: number;
  @num('Mean over every account in the scope.', 12.5) mean: number;
  @num('Lowest value (0 when any account in the scope has none).', 0) min: number;
  @num('Median (percentile_disc 0.5: exact).', 4) p50: number;
  @num('90th percentile (percentile_disc 0.9: exact).', 40) p90: number;
  @num('99th percentile (percentile_disc 0.99: exact).', 400) p99: number;
}

export class AnalyticsDistribution {
  @ApiProperty({
    type: [AnalyticsBin],
    nullable: true,
    description:
      'Exact counts in log-spaced bins: [0, 1) holds the zeros, then [2^(k−1), 2^k) for k ≥ 1 up to the bin holding the maximum.',
  })
  bins: AnalyticsBin[] | null;
  @ApiProperty({ type: AnalyticsSummary }) summary: AnalyticsSummary;
}

export class AnalyticsInequalityPoint {
  @num('Cumulative share of the population, taken from the bottom (0–1).', 0.5) popShare: number;
  @num('Cumulative share of the metric owned by that bottom slice (0–1).', 0.1) valueShare: number;
}

export class AnalyticsInequality {
  @int('Number of non-zero contributors.', 800) count: number;
  @num('Gini coefficient over the non-zero contributors. 0 = perfect equality, 1 = maximum inequality.', 0.6) gini: number;
  @ApiProperty({
    type: [AnalyticsInequalityPoint],
    nullable: true,
    description:
      'Lorenz curve sample points, sorted by popShare ascending, at every 1% of the contributors (the bottom round(j·count/100) of them, ' +
      'j = 0…100, exact), including (0,0) and (1,1).',
  })
  points: AnalyticsInequalityPoint[] | null;
  @num('Fraction of the metric owned by the top 10% (ceil(0.1·count) contributors).', 0.5) top10PercentShare: number;
  @num('Fraction of the metric owned by the top 1% of contributors (ceil(0.01·count)).', 0.2) top1PercentShare: number;
  @num('Fraction of the metric owned by the top 50% (ceil(0.5·count)).', 0.9) top50PercentShare: number;
  @num('Sum of the metric across all non-zero contributors.', 10000) totalValue: number;
}

export class AnalyticsBivariateBucket {
  @int('Accounts in the X bucket.') count: number;
  @num('The X bucket: its lower edge. 0 holds X = 0; a bucket b ≥ 1 holds X in [b, 2b).', 4) x_bucket: number;
  @num('Y aggregated over the bucket (avg: mean; median: percentile_disc 0.5; count: the accounts).', 12) y_value: number;
}

export class AnalyticsBivariate {
  @ApiProperty({ type: [AnalyticsBivariateBucket], nullable: true, description: 'Non-empty X buckets, ascending.' })
  buckets: AnalyticsBivariateBucket[] | null;
}

export class AnalyticsScopeBucket {
  @int('Sample size — accounts contributing to this bucket (those at 0 included).', 120) count: number;
  @ApiPropertyOptional({ type: 'string', example: 'DE', description: 'Country ISO alpha-2 code, e.g. "DE". Stable join key for map data.' })
  countryCode?: string;
  @ApiPropertyOptional({ type: 'string', example: 'Germany', description: 'Country name, e.g. "Germany".' }) countryName?: string;
  @ApiPropertyOptional({ type: 'string', example: 'Europe', description: 'Region name, e.g. "Europe".' }) region?: string;
  @num("The metric's aggregated value for this bucket.", 12.5) value: number;
}

export class AnalyticsMetricByScope {
  @ApiProperty({ type: [AnalyticsScopeBucket], nullable: true, description: 'One bucket per populated country (or region), by name.' })
  buckets: AnalyticsScopeBucket[] | null;
}

export class AnalyticsPercentile {
  @ApiProperty({ enum: ACCOUNT_METRIC_IDS, example: 'xp' }) metric: string;
  @num("Share of the scope's accounts (0–100) whose value is at most the caller's (cume_dist × 100).", 87.5) percentile: number;
  @num("The caller's value.", 1234) value: number;
}

export class AnalyticsMyPercentiles {
  @int('Accounts in the scope.', 1200) count: number;
  @ApiProperty({ type: [AnalyticsPercentile], nullable: true, description: 'One per metric of the domain.' })
  percentiles: AnalyticsPercentile[] | null;
}

export class AnalyticsTrendPoint {
  @int('Accounts in the scope that day.', 1200) count: number;
  @ApiProperty({ type: 'string', format: 'date', example: '2026-12-01', description: 'The day (UTC).' }) date: string;
  @num('Median that day.', 4) p50: number;
  @num('90th percentile that day.', 40) p90: number;
  @num('99th percentile that day.', 400) p99: number;
}

export class AnalyticsTrend {
  @ApiProperty({ type: [AnalyticsTrendPoint], nullable: true, description: 'One point per day with a snapshot, oldest first.' })
  points: AnalyticsTrendPoint[] | null;
}

export class AnalyticsMetricEntry {
  @ApiProperty({ example: 'xp', description: 'The column holding it (catalogue domains: `table.column`).' }) column: string;
  @ApiProperty({ enum: ANALYTICS_METRIC_IDS, example: 'xp' }) id: string;
  @ApiProperty({
    example: 'points',
    description:
      'What the values count: count, minutes, points, amount, level or days (account age: whole UTC days since the account was created ' +
      "on the platform; a badge's completion ages: whole UTC days since its first or latest completion by a tracked holder).",
  })
  kind: string;
}

export class AnalyticsScopeEntry {
  @ApiProperty({ example: 'country_code', description: 'The account field the scope groups by (empty for global).' }) column: string;
  @ApiProperty({ enum: ANALYTICS_SCOPES, example: 'country' }) id: string;
  @ApiProperty({ example: 'country name or ISO 3166-1 alpha-2 code', description: 'What `scope_value` names.' }) value_type: string;
}

export class AnalyticsDomainEntry {
  @ApiProperty({ enum: ANALYTICS_DOMAINS, example: 'accounts' }) id: string;
  @ApiProperty({ type: [AnalyticsMetricEntry], nullable: true }) metrics: AnalyticsMetricEntry[] | null;
  @ApiProperty({ type: [AnalyticsScopeEntry], nullable: true }) scopes: AnalyticsScopeEntry[] | null;
}

export class AnalyticsListMetricsResponseBody {
  @ApiProperty({ type: [AnalyticsDomainEntry], nullable: true }) domains: AnalyticsDomainEntry[] | null;
}
