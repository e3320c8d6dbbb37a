import type { ReplicaScope } from '../../ranks/replica/rank-replica';

/** A histogram read as a ReplicaScope, plus its runs of equal values (value, accounts), highest first. */
export interface HistogramScope extends ReplicaScope {
  forEachRun(visit: (value: number, times: number) => void): void;
}

interface View {
  key: number;
  scope: HistogramScope;
}

/**
 * One metric's values in one scope as value → number of accounts: memory grows with the distinct values (a level,
 * a friend count, a creation day: a few thousand at most), not with the accounts. Kept as two parallel arrays in
 * ascending value order (a binary search and a short splice per change: d ≤ ~8,000). `view` answers the rank
 * replica's ReplicaScope over it, so the analytics reads treat it as they treat a replica column.
 */
export class ValueHistogram {
  private readonly values: number[] = [];
  private readonly counts: number[] = [];
  /** Accounts counted. */
  total = 0;
  /** Counts the changes: views are kept per version. */
  version = 0;
  private cached: View | null = null;

  /** Adds `delta` (±1) accounts of `value`. */
  add(value: number, delta: number): void {
    const { values, counts } = this;
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    if (values[lo] === value) {
      counts[lo] += delta;
      if (counts[lo] === 0) {
        values.splice(lo, 1);
        counts.splice(lo, 1);
      }
    } else {
      values.splice(lo, 0, value);
      counts.splice(lo, 0, delta);
    }
    this.total += delta;
    this.version++;
  }

  /** Distinct values held (memory estimates, tests). */
  get distinct(): number {
    return this.values.length;
  }

  /**
   * The histogram's values mapped by `valueOf`, monotone (`ascending`: non-decreasing in the stored value, else
   * non-increasing; results below 0 count as 0), as a ReplicaScope; kept while `key` (version and what `valueOf`
   * depends on, e.g. today) holds.
   */
  view(key: number, valueOf: (stored: number) => number, ascending: boolean): HistogramScope {
    const full = key * 1e9 + this.version;
    if (this.cached?.key === full) return this.cached.scope;
    const desc: number[] = [];
    const through: number[] = [];
    let sum = 0;
    let scored = 0;
    const n = this.values.length;
    for (let k = 0; k < n; k++) {
      const i = ascending ? n - 1 - k : k;
      const value = Math.max(0, valueOf(this.values[i]));
      if (value === 0) continue;
      sum += value * this.counts[i];
      scored += this.counts[i];
      if (desc.length && desc[desc.length - 1] === value) through[through.length - 1] = scored;
      else {
        desc.push(value);
        through.push(scored);
      }
    }
    const scope: HistogramScope = {
      population: this.total,
      scored,
      sum,
      scoreAt: (ahead) => {
        if (ahead >= scored) return 0;
        let lo = 0;
        let hi = desc.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (through[mid] > ahead) hi = mid;
          else lo = mid + 1;
        }
        return desc[lo];
      },
      countAtLeast: (score) => {
        // The last value ≥ score, in descending order.
        let lo = 0;
        let hi = desc.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (desc[mid] >= score) lo = mid + 1;
          else hi = mid;
        }
        return lo === 0 ? 0 : through[lo - 1];
      },
      forEachRun: (visit) => {
        for (let i = 0; i < desc.length; i++) visit(desc[i], through[i] - (i ? through[i - 1] : 0));
      },
      forEachScore: (visit) => {
        for (let i = 0; i < desc.length; i++) for (let c = through[i] - (i ? through[i - 1] : 0); c > 0; c--) visit(desc[i]);
      },
    };
    this.cached = { key: full, scope };
    return scope;
  }
}
