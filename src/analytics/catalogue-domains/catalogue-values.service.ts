import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ReplicaScope } from '../../ranks/replica/rank-replica';
import type { PairWalk } from '../bivariate-tables';
import type { Generations } from '../scope-cache';
import { CATALOGUE_METRICS, CATALOGUE_ROWS, CatalogueDomain } from './catalogue-metrics';

/** A domain's values are served as loaded for this long… */
export const CATALOGUE_RELOAD_MS = 10_000;
/** …then reloaded in the background while still served, up to this age; past it a read waits for the reload. */
export const CATALOGUE_MAX_AGE_MS = 15_000;

/**
 * One load of a domain's values: per metric, one value per catalogue row (NaN where the metric does not count the
 * row). Each metric's values sorted highest first when first asked, so every read after is a binary search or a walk
 * of an array the size of the catalogue. Its own generation never changes: a reload is a new snapshot, which the
 * ScopeCaches of Lorenz curves and bivariate tables see as a new source.
 */
export class CatalogueSnapshot implements Generations {
  readonly generation = 0;
  private readonly sorted = new Map<string, ReplicaScope>();

  constructor(
    readonly at: number,
    readonly rows: number,
    private readonly columns: Map<string, Float64Array>,
  ) {}

  /** A metric's values as the rank replica's scopes give theirs: population, non-zero values highest first, sum. */
  scope(metric: string): ReplicaScope {
    let scope = this.sorted.get(metric);
    if (!scope) this.sorted.set(metric, (scope = sortedScope(this.columns.get(metric)!)));
    return scope;
  }

  /** The rows counted by both metrics, as (x, y) pairs. */
  pairs(x: string, y: string): PairWalk {
    const [xs, ys] = [this.columns.get(x)!, this.columns.get(y)!];
    return {
      held: this.rows,
      walk: (from, to, visit) => {
        for (let i = from; i < Math.min(to, this.rows); i++) if (!Number.isNaN(xs[i]) && !Number.isNaN(ys[i])) visit(xs[i], ys[i]);
      },
    };
  }
}

function sortedScope(values: Float64Array): ReplicaScope {
  const counted = values.filter((value) => !Number.isNaN(value));
  const positive = counted
    .filter((value) => value > 0)
    .sort()
    .reverse();
  const sum = positive.reduce((total, value) => total + value, 0);
  /** Values at least `score`: a prefix of the descending array, found by binary search. */
  const countAtLeast = (score: number) => {
    let [low, high] = [0, positive.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (positive[mid] >= score) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  return {
    population: counted.length,
    scored: positive.length,
    sum,
    scoreAt: (ahead) => (ahead < positive.length ? positive[ahead] : 0),
    countAtLeast,
    forEachScore: (visit) => positive.forEach((value) => visit(value)),
  };
}

/**
 * The catalogue domains' values per process: one statement per domain and reload (a row per badge or app, never per
 * account), shared by every read meanwhile. Memory: 8 bytes per row and metric, twice (as loaded and sorted); about
 * 3 MB for 50,000 badges.
 */
@Injectable()
export class CatalogueValues {
  private readonly kept = new Map<CatalogueDomain, CatalogueSnapshot>();
  private readonly loading = new Map<CatalogueDomain, Promise<CatalogueSnapshot>>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async snapshot(domain: CatalogueDomain): Promise<CatalogueSnapshot> {
    const kept = this.kept.get(domain);
    const age = kept ? Date.now() - kept.at : Infinity;
    if (kept && age < CATALOGUE_RELOAD_MS) return kept;
    const reload = this.load(domain);
    if (kept && age < CATALOGUE_MAX_AGE_MS) {
      // A failed background reload leaves the kept values; past their maximum age the next read waits (and fails).
      reload.catch(() => undefined);
      return kept;
    }
    return reload;
  }

  private load(domain: CatalogueDomain): Promise<CatalogueSnapshot> {
    let running = this.loading.get(domain);
    if (!running) {
      const at = Date.now();
      const metrics = CATALOGUE_METRICS[domain];
      running = this.dataSource
        .query<Record<string, number | null>[]>(
          `SELECT ${metrics.map((metric) => `(${metric.sql})::float8 AS "${metric.id}"`).join(', ')} FROM ${CATALOGUE_ROWS[domain]}`,
        )
        .then((rows) => {
          const columns = new Map(
            metrics.map((metric) => [metric.id, Float64Array.from(rows, (row) => (row[metric.id] === null ? NaN : row[metric.id]!))]),
          );
          const snapshot = new CatalogueSnapshot(at, rows.length, columns);
          this.kept.set(domain, snapshot);
          return snapshot;
        })
        .finally(() => this.loading.delete(domain));
      this.loading.set(domain, running);
    }
    return running;
  }
}
