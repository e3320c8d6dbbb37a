import { Injectable } from '@nestjs/common';
import type { RankReplica } from '../ranks/replica/rank-replica';
import { logBucketOf, percentileOfSorted } from './population-math';
import { ScopeCache } from './scope-cache';

/** One X bucket of a bivariate table with Y aggregated every way a request may ask. */
export interface BivariateRow {
  /** The bucket's lower edge (population-math logBucketOf). */
  lower: number;
  count: number;
  avg: number;
  median: number;
}

/** How often a table is computed again while the boards change (a completed update shows within it). */
const RECOMPUTE_MS = 15_000;

/**
 * Bivariate tables: every account of a scope (zeros included) bucketed by X on the log bins of the histograms, with Y's
 * count, mean and median per bucket. A walk of the replica's accounts (O(accounts held): ~10 ms at a million, plus
 * sorting each bucket's Y values for the median, ~100 ms at a million in the global scope) computed once per
 * (scope, X, Y) and kept (ScopeCache): every read between two computations is a look-up.
 */
@Injectable()
export class BivariateTables {
  private readonly cache = new ScopeCache<BivariateRow[]>(RECOMPUTE_MS, 256);

  table(replica: RankReplica, scopeKey: string, xColumn: string, yColumn: string): BivariateRow[] {
    return this.cache.get(replica, `${scopeKey}/${xColumn}/${yColumn}`, () => computeTable(replica, scopeKey, xColumn, yColumn));
  }
}

function computeTable(replica: RankReplica, scopeKey: string, xColumn: string, yColumn: string): BivariateRow[] {
  // Bucket index: 0 for X = 0, k for X in [2^(k−1), 2^k): at most 33.
  const indexOf = (x: number) => (x < 1 ? 0 : Math.floor(Math.log2(x)) + 1);
  const counts = new Float64Array(34);
  const sums = new Float64Array(34);
  replica.forEachPair(scopeKey, xColumn, yColumn, (x, y) => {
    const b = indexOf(x);
    counts[b]++;
    sums[b] += y;
  });
  const ys = Array.from(counts, (count) => new Uint32Array(count));
  const filled = new Uint32Array(34);
  replica.forEachPair(scopeKey, xColumn, yColumn, (x, y) => {
    const b = indexOf(x);
    ys[b][filled[b]++] = y;
  });
  const rows: BivariateRow[] = [];
  for (let b = 0; b < counts.length; b++) {
    if (!counts[b]) continue;
    const sorted = ys[b].sort();
    rows.push({
      lower: b === 0 ? 0 : logBucketOf(2 ** (b - 1)),
      count: counts[b],
      avg: sums[b] / counts[b],
      median: percentileOfSorted(sorted, 0.5),
    });
  }
  return rows;
}
