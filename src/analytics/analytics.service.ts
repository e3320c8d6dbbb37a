import { Injectable } from '@nestjs/common';
import { serviceUnavailable, unprocessable } from '../common/problem/problem.exception';
import type { RankReplica, ReplicaScope } from '../ranks/replica/rank-replica';
import { RankReplicaService } from '../ranks/replica/rank-replica.service';
import { ACCOUNT_METRICS, MetricDefinition, metricOf } from './analytics-catalogue';
import { AnalyticsScopes } from './analytics-scopes';
import { BivariateTables } from './bivariate-tables';
import {
  AnalyticsBivariate,
  AnalyticsDistribution,
  AnalyticsInequality,
  AnalyticsMetricByScope,
  AnalyticsMyPercentiles,
  AnalyticsScopeBucket,
  AnalyticsTrend,
  Aggregation,
} from './dto/analytics.dto';
import { Inequality, inequalityOf, inequalityOfRuns, logBinEdges, percentileDisc } from './population-math';
import { PairAxis, PopulationHistograms, utcDay } from './histograms/population-histograms.service';
import { ScopeCache } from './scope-cache';
import { CATALOGUE_METRICS, CatalogueDomain, CatalogueMetric, isCatalogueDomain } from './catalogue-domains/catalogue-metrics';
import { CatalogueSnapshot, CatalogueValues } from './catalogue-domains/catalogue-values.service';
import { TrendReader } from './trends/trend-reader.service';

/** How often a whole-scope answer (Lorenz curve, bivariate table) is computed again while the boards change. */
export const WHOLE_SCOPE_RECOMPUTE_MS = 10_000;

/** An empty scope (a state or city nobody lives in): no accounts, no values. */
const EMPTY_SCOPE: ReplicaScope = {
  population: 0,
  scored: 0,
  sum: 0,
  scoreAt: () => 0,
  countAtLeast: () => 0,
  forEachScore: () => undefined,
};

/** Log-spaced bins with exact counts and the exact summary of a set of values (accounts of a scope, or a catalogue's rows). */
function distributionOf(values: ReplicaScope): AnalyticsDistribution {
  const max = values.scored ? values.scoreAt(0) : 0;
  const edges = logBinEdges(max);
  const bins = [];
  for (let b = 0; b + 1 < edges.length && values.population > 0; b++) {
    const [lower, upper] = [edges[b], edges[b + 1]];
    const atLeastLower = lower === 0 ? values.population : values.countAtLeast(lower);
    bins.push({ count: atLeastLower - values.countAtLeast(upper), x_lower: lower, x_upper: upper });
  }
  const n = values.population;
  return {
    bins,
    summary: {
      count: n,
      max,
      mean: n ? values.sum / n : 0,
      min: n === 0 ? 0 : values.scored < n ? 0 : values.scoreAt(values.scored - 1),
      p50: percentileDisc(values, 0.5),
      p90: percentileDisc(values, 0.9),
      p99: percentileDisc(values, 0.99),
    },
  };
}

const loading = () => serviceUnavailable('Population statistics are loading; try again shortly.', 5);

/**
 * The population statistics of the `accounts` domain, read from this process's rank replica (src/ranks/replica): per
 * (column, scope) the population, the non-zero values in board order and their sum. Quantiles are rank look-ups, bins
 * counts of the bins' edges, count / sum / min / max the set's ends and totals: O(log N) each, live. Lorenz curves and
 * bivariate tables walk a scope and are kept per key (ScopeCache). While the replica loads (boot, a rebuild) the reads
 * answer 503 with Retry-After.
 */
@Injectable()
export class AnalyticsService {
  private readonly inequalities = new ScopeCache<Inequality>(WHOLE_SCOPE_RECOMPUTE_MS);

  constructor(
    private readonly replicas: RankReplicaService,
    private readonly scopes: AnalyticsScopes,
    private readonly bivariates: BivariateTables,
    private readonly trends: TrendReader,
    private readonly histograms: PopulationHistograms,
    private readonly catalogueValues: CatalogueValues,
  ) {}

  async distribution(domain: string, metricId: string, scope: string, value: string | undefined): Promise<AnalyticsDistribution> {
    if (isCatalogueDomain(domain)) return distributionOf(await this.catalogueScope(domain, metricId, 'metric', scope));
    const metric = this.metric(metricId, 'metric');
    const key = await this.scopes.keyOf(scope, value);
    return distributionOf(this.scopeOf(this.replica(), metric, key));
  }

  async inequality(domain: string, metricId: string, scope: string, value: string | undefined): Promise<AnalyticsInequality> {
    if (isCatalogueDomain(domain)) {
      const snapshot = await this.catalogue(domain, scope);
      const values = snapshot.scope(this.catalogueMetric(domain, metricId, 'metric').id);
      return this.inequalities.get(snapshot, `catalogue:${domain}/${metricId}`, () =>
        inequalityOf(values.scored, (visit) => values.forEachScore(visit)),
      );
    }
    const metric = this.metric(metricId, 'metric');
    const key = await this.scopes.keyOf(scope, value);
    const replica = this.replica();
    if (metric.histogram) {
      // O(distinct values) from the histogram's runs: computed per read, no cache needed.
      const runs = this.histograms.scope(metric.histogram, key);
      if (!runs) throw loading();
      return inequalityOfRuns(runs.scored, (visit) => runs.forEachRun(visit));
    }
    const values = this.scopeOf(replica, metric, key);
    return this.inequalities.get(replica, `${metric.column}/${key}`, () =>
      inequalityOf(values.scored, (visit) => values.forEachScore(visit)),
    );
  }

  async bivariate(
    domain: string,
    xId: string,
    yId: string,
    agg: Aggregation,
    scope: string,
    value: string | undefined,
  ): Promise<AnalyticsBivariate> {
    if (isCatalogueDomain(domain)) {
      const [x, y] = [this.catalogueMetric(domain, xId, 'x'), this.catalogueMetric(domain, yId, 'y')];
      const snapshot = await this.catalogue(domain, scope);
      const table = await this.bivariates.pairedTable(snapshot, `catalogue:${domain}/${x.id}/${y.id}`, () => snapshot.pairs(x.id, y.id));
      return { buckets: table.map((bucket) => ({ x_bucket: bucket.lower, count: bucket.count, y_value: bucket[agg] })) };
    }
    const [x, y] = [this.metric(xId, 'x'), this.metric(yId, 'y')];
    const key = await this.scopes.keyOf(scope, value);
    const replica = this.replica();
    let table;
    if (x.histogram || y.histogram) {
      // Level, friends or account age on an axis: walked over the histograms' accounts (age: known creation times).
      const axis = (metric: MetricDefinition): PairAxis =>
        metric.histogram ? { metric: metric.histogram } : { replica, column: replica.columns.indexOf(metric.column) };
      const pairs = this.histograms.pairs(key, axis(x), axis(y));
      if (!pairs) throw loading();
      const cacheKey = `${key}/${x.id}/${y.id}/${utcDay(Date.now())}`;
      table = await this.bivariates.pairedTable(pairs.source, cacheKey, () => pairs.walk);
    } else table = await this.bivariates.table(replica, key, x.column, y.column);
    return { buckets: table.map((bucket) => ({ x_bucket: bucket.lower, count: bucket.count, y_value: bucket[agg] })) };
  }

  async metricByScope(
    domain: string,
    metricId: string,
    dimension: 'country' | 'region',
    agg: Aggregation,
  ): Promise<AnalyticsMetricByScope> {
    this.accountsOnly(domain, 'getMetricByScope groups accounts by where they live');
    const metric = this.metric(metricId, 'metric');
    const replica = this.replica();
    const prefix = dimension === 'country' ? 'c:' : 'r:';
    const buckets: AnalyticsScopeBucket[] = [];
    for (const key of replica.scopeKeys(prefix)) {
      const values = this.scopeOf(replica, metric, key);
      const count = values.population;
      // Nobody there counted (account age: no creation time known): no bucket, as a GROUP BY has none.
      if (count === 0) continue;
      const value = agg === 'count' ? count : agg === 'avg' ? values.sum / count : percentileDisc(values, 0.5);
      const name = key.slice(2);
      const where = dimension === 'country' ? await this.scopes.countryOf(name) : { region: this.scopes.regionName(name) };
      buckets.push({ ...where, count, value });
    }
    return { buckets: buckets.sort((a, b) => (a.countryName ?? a.region ?? '').localeCompare(b.countryName ?? b.region ?? '')) };
  }

  async myPercentiles(domain: string, accountId: number, scope: string, value: string | undefined): Promise<AnalyticsMyPercentiles> {
    this.accountsOnly(domain, "getMyPercentiles ranks the caller's own account");
    const key = await this.scopes.keyOf(scope, value);
    const replica = this.replica();
    const scores = replica.scoresIn(accountId, key);
    const population = replica.scope(replica.columns[0], key)?.population ?? 0;
    if (!scores) return { count: population, percentiles: [] };
    const now = Date.now();
    const percentiles = ACCOUNT_METRICS.flatMap((metric) => {
      const own = metric.histogram
        ? this.histograms.valueOf(metric.histogram, accountId, now)
        : scores[replica.columns.indexOf(metric.column)];
      if (own === undefined) throw loading();
      // Account age unknown (no creation time): not in that metric's population.
      if (own === null) return [];
      const values = this.scopeOf(replica, metric, key, now);
      // cume_dist: the accounts at or below the caller's value, over the scope.
      const atOrBelow = values.population - values.countAtLeast(own + 1);
      return [{ metric: metric.id, percentile: (100 * atOrBelow) / values.population, value: own }];
    });
    return { count: population, percentiles };
  }

  async trend(domain: string, metricId: string, scope: string, value: string | undefined, window: string): Promise<AnalyticsTrend> {
    this.accountsOnly(domain, 'daily trends are kept for the account metrics');
    const metric = this.metric(metricId, 'metric');
    const key = await this.scopes.keyOf(scope, value);
    return { points: await this.trends.points(metric.id, key, window) };
  }

  /** A catalogue domain's values; its only scope is global (badges and apps have no location). */
  private async catalogue(domain: CatalogueDomain, scope: string): Promise<CatalogueSnapshot> {
    if (scope !== 'global')
      throw unprocessable(`The ${domain} domain is served for the global scope only: ${domain} have no location.`, [
        { location: 'body.scope', message: 'global only in this domain', value: scope },
      ]);
    return this.catalogueValues.snapshot(domain);
  }

  private async catalogueScope(domain: CatalogueDomain, metricId: string, field: string, scope: string): Promise<ReplicaScope> {
    const metric = this.catalogueMetric(domain, metricId, field);
    return (await this.catalogue(domain, scope)).scope(metric.id);
  }

  private catalogueMetric(domain: CatalogueDomain, id: string, field: string): CatalogueMetric {
    const metric = CATALOGUE_METRICS[domain].find((candidate) => candidate.id === id);
    if (!metric)
      throw unprocessable(`No metric "${id}" in the ${domain} domain.`, [
        { location: `body.${field}`, message: 'unknown metric', value: id },
      ]);
    return metric;
  }

  private accountsOnly(domain: string, why: string): void {
    if (domain !== 'accounts')
      throw unprocessable(`Only the accounts domain is served here: ${why}.`, [
        { location: 'body.domain', message: 'accounts only', value: domain },
      ]);
  }

  private replica(): RankReplica {
    const replica = this.replicas.statistics;
    if (!replica) throw loading();
    return replica;
  }

  private scopeOf(replica: RankReplica, metric: MetricDefinition, key: string, now = Date.now()): ReplicaScope {
    if (!metric.histogram) return replica.scope(metric.column, key) ?? EMPTY_SCOPE;
    const values = this.histograms.scope(metric.histogram, key, now);
    if (!values) throw loading();
    return values;
  }

  private metric(id: string, field: string): MetricDefinition {
    const metric = metricOf(id);
    if (!metric)
      throw unprocessable(`No metric "${id}" in the accounts domain.`, [
        { location: `body.${field}`, message: 'unknown metric', value: id },
      ]);
    return metric;
  }
}
