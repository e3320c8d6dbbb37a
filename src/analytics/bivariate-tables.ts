import { Injectable } from '@nestjs/common';
import quickselect from 'quickselect';
import { TimeSlices } from '../common/scheduling/time-slices';
import type { RankReplica } from '../ranks/replica/rank-replica';
import { Generations, ScopeCache } from './scope-cache';

/** One X bucket of a bivariate table with Y aggregated every way a request may ask. */
export interface BivariateRow {
  /** The bucket's lower edge (population-math logBucketOf). */
  lower: number;
  count: number;
  avg: number;
  median: number;
}

/** How often a table is computed again while the boards change (a completed update shows within it). */
export const BIVARIATE_RECOMPUTE_MS = 15_000;
/** Slots walked between two looks at the clock. */
const WALK_CHUNK = 16_384;
/** X buckets: 0 for X = 0, k for X in [2^(k−1), 2^k); 32-bit values need 33. */
const BUCKETS = 34;

/**
 * Bivariate tables: every account of a scope (zeros included) bucketed by X on the log bins of the histograms, with Y's
 * count, mean and median (percentile_disc 0.5, by selection: quickselect, O(n)) per bucket. One walk of the replica's
 * accounts (O(accounts held), whatever the scope) in time slices, so the requests of the process wait a slice at most,
 * then a selection per bucket; kept per (scope, X, Y) in a ScopeCache, so reads between computations are look-ups.
 */
@Injectable()
export class BivariateTables {
  private readonly cache = new ScopeCache<BivariateRow[]>(BIVARIATE_RECOMPUTE_MS, 256);

  table(replica: RankReplica, scopeKey: string, xColumn: string, yColumn: string): Promise<BivariateRow[]> {
    return this.cache.get(replica, `${scopeKey}/${xColumn}/${yColumn}`, () => computeTable(replica, scopeKey, xColumn, yColumn));
  }

  /**
   * A table with a histogram metric (level, friends, account age) on either axis: walked over the population
   * histograms' accounts (PairWalk), kept against `source` (their state: its generation counts their changes).
   */
  pairedTable(source: Generations, key: string, walk: () => PairWalk): Promise<BivariateRow[]> {
    return this.cache.get(source, key, () => computeTableOf(walk()));
  }
}

/** The accounts of a scope with their X and Y, held in slots [0, held), walked a range of slots at a time. */
export interface PairWalk {
  held: number;
  walk(from: number, to: number, visit: (x: number, y: number) => void): void;
}

export function computeTable(replica: RankReplica, scopeKey: string, xColumn: string, yColumn: string): Promise<BivariateRow[]> {
  return computeTableOf({
    held: replica.accounts,
    walk: (from, to, visit) => replica.forEachPair(scopeKey, xColumn, yColumn, from, to, visit),
  });
}

async function computeTableOf(pairs: PairWalk): Promise<BivariateRow[]> {
  const slices = new TimeSlices();
  // One pass copies each account's bucket and Y (the replica may move accounts between slices: each is read once).
  const held = pairs.held;
  const buckets = new Uint8Array(held);
  const ys = new Uint32Array(held);
  let n = 0;
  for (let from = 0; from < held; from += WALK_CHUNK) {
    pairs.walk(from, from + WALK_CHUNK, (x, y) => {
      buckets[n] = x < 1 ? 0 : Math.floor(Math.log2(x)) + 1;
      ys[n++] = y;
    });
    await slices.yieldIfDue();
  }
  const counts = new Uint32Array(BUCKETS);
  const sums = new Float64Array(BUCKETS);
  await slices.forEach(n, (i) => {
    counts[buckets[i]]++;
    sums[buckets[i]] += ys[i];
  });
  // Each bucket's Y values side by side (a counting sort by bucket), then selected in place.
  const starts = new Uint32Array(BUCKETS + 1);
  for (let b = 0; b < BUCKETS; b++) starts[b + 1] = starts[b] + counts[b];
  const grouped = new Uint32Array(n);
  const next = starts.slice(0, BUCKETS);
  await slices.forEach(n, (i) => (grouped[next[buckets[i]]++] = ys[i]));
  const rows: BivariateRow[] = [];
  for (let b = 0; b < BUCKETS; b++) {
    if (!counts[b]) continue;
    const values = grouped.subarray(starts[b], starts[b + 1]);
    const k = Math.max(1, Math.ceil(0.5 * counts[b])) - 1;
    quickselect(values, k);
    rows.push({ lower: b === 0 ? 0 : 2 ** (b - 1), count: counts[b], avg: sums[b] / counts[b], median: values[k] });
    await slices.yieldIfDue();
  }
  return rows;
}
