import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { ACCOUNT_METRICS, SCOPE_DEFINITIONS } from './analytics-catalogue';
import { CATALOGUE_DOMAINS, CATALOGUE_METRICS } from './catalogue-domains/catalogue-metrics';
import { AnalyticsService } from './analytics.service';
import {
  Aggregation,
  AnalyticsBivariate,
  AnalyticsDistribution,
  AnalyticsGetBivariateRequestBody,
  AnalyticsGetDistributionRequestBody,
  AnalyticsGetInequalityRequestBody,
  AnalyticsGetMetricByScopeRequestBody,
  AnalyticsGetMyPercentilesRequestBody,
  AnalyticsInequality,
  AnalyticsListMetricsResponseBody,
  AnalyticsMetricByScope,
  AnalyticsMyPercentiles,
  AnalyticsGetTrendRequestBody,
  AnalyticsTrend,
} from './dto/analytics.dto';

const POPULATION =
  'Over the refreshed accounts in the scope (hidden ones included, as the leaderboards count them), accounts at 0 included ' +
  '(account_age: those with a known platform creation time, aged in whole UTC days); ' +
  'live from the in-memory boards: a completed update shows at once (Lorenz curves and bivariate tables within 15 s). ' +
  'Domains badges and apps (global scope only): over every badge definition or app the service has seen, from the catalogue ' +
  'tables the update writer maintains, reloaded at most every 10 s (a completed update shows within 15 s).';

@ApiTags('analytics')
@Controller('v1')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @WireOperation({
    operationId: 'analytics.listMetrics',
    summary: 'List every analytics domain, metric, and scope the service can serve',
    description: 'The ids the other analytics operations take, with the account column each metric reads and what each scope value names.',
    auth: 'any',
    response: AnalyticsListMetricsResponseBody,
    errors: [500],
    noBody: true,
  })
  listMetrics(): AnalyticsListMetricsResponseBody {
    const scopes = SCOPE_DEFINITIONS.map(({ id: scope, column, valueType }) => ({ id: scope, column, value_type: valueType }));
    return {
      domains: [
        { id: 'accounts', metrics: ACCOUNT_METRICS.map(({ id: metric, column, kind }) => ({ id: metric, column, kind })), scopes },
        ...CATALOGUE_DOMAINS.map((id) => ({
          id,
          metrics: CATALOGUE_METRICS[id].map(({ id: metric, column, kind }) => ({ id: metric, column, kind })),
          // Badges and apps have no location: the global scope only.
          scopes: scopes.filter((scope) => scope.id === 'global'),
        })),
      ],
    };
  }

  @WireOperation({
    operationId: 'analytics.getDistribution',
    summary: 'Histogram + summary stats for a metric in a scope',
    description:
      `${POPULATION} Bins are log-spaced with exact counts: [0, 1) holds the zeros, then [2^(k−1), 2^k) up to the maximum's bin. ` +
      'count, min, max and mean are exact; p50/p90/p99 are exact (percentile_disc).',
    auth: 'any',
    response: AnalyticsDistribution,
    errors: [400, 422, 500],
  })
  getDistribution(@Body() body: AnalyticsGetDistributionRequestBody): Promise<AnalyticsDistribution> {
    return this.analytics.distribution(body.domain, body.metric, body.scope, body.scope_value);
  }

  @WireOperation({
    operationId: 'analytics.getInequality',
    summary: 'Lorenz curve + Gini + top-X%-own-Y% headlines for one metric in a scope',
    description:
      'Over the non-zero contributors in the scope (refreshed accounts, hidden ones included; badges or apps in their domains): exact Gini and top shares, and ' +
      'the Lorenz curve at every 1% of the contributors. Kept per (metric, scope) and computed again at most every 10 s while the boards change.',
    auth: 'any',
    response: AnalyticsInequality,
    errors: [400, 422, 500],
  })
  getInequality(@Body() body: AnalyticsGetInequalityRequestBody): Promise<AnalyticsInequality> {
    return this.analytics.inequality(body.domain, body.metric, body.scope, body.scope_value);
  }

  @WireOperation({
    operationId: 'analytics.getBivariate',
    summary: 'Bucket by X, aggregate Y, within a scope',
    description:
      `${POPULATION} X is bucketed on the log bins of getDistribution (x_bucket is the bin's lower edge: 0, 1, 2, 4, …); Y is ` +
      'averaged (avg), its percentile_disc 0.5 taken (median) or the accounts counted (count). Non-empty buckets only. ' +
      'In the badges and apps domains both axes are metrics of that domain and the rows are badges or apps.',
    auth: 'any',
    response: AnalyticsBivariate,
    errors: [400, 422, 500],
  })
  getBivariate(@Body() body: AnalyticsGetBivariateRequestBody): Promise<AnalyticsBivariate> {
    return this.analytics.bivariate(body.domain, body.x, body.y, body.agg as Aggregation, body.scope, body.scope_value);
  }

  @WireOperation({
    operationId: 'analytics.getMetricByScope',
    summary: 'One metric aggregated per country (or region) — worldmap source',
    description: `${POPULATION} One bucket per populated country or region: count (accounts), avg (mean) or median (percentile_disc 0.5). The accounts domain only (422 otherwise).`,
    auth: 'any',
    response: AnalyticsMetricByScope,
    errors: [400, 422, 500],
  })
  getMetricByScope(@Body() body: AnalyticsGetMetricByScopeRequestBody): Promise<AnalyticsMetricByScope> {
    return this.analytics.metricByScope(body.domain, body.metric, body.dimension as 'country' | 'region', body.agg as Aggregation);
  }

  @WireOperation({
    operationId: 'analytics.getMyPercentiles',
    summary: 'Per-metric percentile rank for the logged-in user in the chosen scope (user session only)',
    description:
      `${POPULATION} For each metric, the share (0–100) of the scope's accounts whose value is at most the caller's (cume_dist × 100), exact. ` +
      'No percentiles when the caller is not on the boards (never refreshed) or does not live in the scope. The accounts domain only (422 otherwise).',
    auth: 'session',
    response: AnalyticsMyPercentiles,
    errors: [400, 401, 422, 500],
  })
  getMyPercentiles(
    @Body() body: AnalyticsGetMyPercentilesRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AnalyticsMyPercentiles> {
    return this.analytics.myPercentiles(body.domain, principal.accountId, body.scope, body.scope_value);
  }

  @WireOperation({
    operationId: 'analytics.getTrend',
    summary: 'Daily quantiles over a window for a metric in a scope',
    description:
      "The count and percentile_disc 0.5 / 0.9 / 0.99 of the scope's refreshed accounts (those at 0 included), one point per UTC day " +
      'of the window (today included) that has a snapshot: the worker writes one a day (at its first start of a day, then each new ' +
      'day), `npm run seed` writes the days it seeds. Kept for the global, region and country scopes of the accounts domain (422 otherwise).',
    auth: 'any',
    response: AnalyticsTrend,
    errors: [400, 422, 500],
  })
  async getTrend(@Body() body: AnalyticsGetTrendRequestBody): Promise<AnalyticsTrend> {
    return this.analytics.trend(body.domain, body.metric, body.scope, body.scope_value, body.window);
  }
}
