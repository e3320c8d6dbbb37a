/**
 * The pure arithmetic of the population statistics, over a scope given as its population and its non-zero values in
 * descending order (what the rank replica's sets hold). Unit-tested in test/unit/population-math.spec.ts.
 */

/** A scope's values: `population` accounts, `scored` of them above 0, the k-th highest (0-based) by `scoreAt`. */
export interface SortedValues {
  population: number;
  scored: number;
  scoreAt(ahead: number): number;
}

/**
 * PostgreSQL's `percentile_disc(p)`: the value at 1-based ascending position ceil(p · n) (the first, for p = 0), with
 * the same float arithmetic, so the two agree to the value. Zeros come first in the ascending order.
 */
export function percentileDisc(values: SortedValues, p: number): number {
  const n = values.population;
  if (n === 0) return 0;
  const position = Math.max(1, Math.ceil(p * n));
  const zeros = n - values.scored;
  if (position <= zeros) return 0;
  return values.scoreAt(values.scored - (position - zeros));
}

/**
 * The histogram's bins, log-spaced for heavy-tailed values: [0, 1) holds the zeros, bin k ≥ 1 holds [2^(k−1), 2^k),
 * up to the bin holding `max` (one bin [0, 1) when every value is 0). Values are integers, so every value falls in
 * exactly one bin; at most 33 bins for 32-bit values.
 */
export function logBinEdges(max: number): number[] {
  const edges = [0, 1];
  while (edges[edges.length - 1] <= max) edges.push(edges[edges.length - 1] * 2);
  return edges;
}

/** The lower edge of the log bin holding `value` (0, 1, 2, 4, 8, …). */
export function logBucketOf(value: number): number {
  return value < 1 ? 0 : 2 ** Math.floor(Math.log2(value));
}

export interface Inequality {
  count: number;
  totalValue: number;
  gini: number;
  points: { popShare: number; valueShare: number }[];
  top1PercentShare: number;
  top10PercentShare: number;
  top50PercentShare: number;
}

/** Lorenz points at every 1/LORENZ_STEPS of the contributors. */
export const LORENZ_STEPS = 100;

/**
 * Gini, Lorenz curve and top shares over `count` non-zero contributors whose values `forEachDescending` visits highest
 * first, in one pass. Gini = 2·Σ i·x_(i) / (n·S) − (n + 1)/n over the ascending order x_(1) ≤ … ≤ x_(n). The Lorenz
 * point j is the bottom round(j·n/100) contributors (so popShare is their exact share); a top share is the top
 * ceil(f·n) contributors' part of the total.
 */
export function inequalityOf(count: number, forEachDescending: (visit: (value: number) => void) => void): Inequality {
  return inequalityOfRuns(count, (visit) => forEachDescending((value) => visit(value, 1)));
}

/**
 * inequalityOf over runs of equal values (value, how many), highest first: O(runs + Lorenz points), so a histogram
 * of a few thousand distinct values answers for a million contributors without visiting each.
 */
export function inequalityOfRuns(count: number, forEachRun: (visit: (value: number, times: number) => void) => void): Inequality {
  const n = count;
  const bottoms = [...new Set(Array.from({ length: LORENZ_STEPS + 1 }, (_, j) => Math.round((j * n) / LORENZ_STEPS)))];
  const tops = [0.01, 0.1, 0.5].map((f) => Math.ceil(f * n));
  // Every count of top contributors whose sum is needed: the tops, and each bottom's complement.
  const wanted = [...new Set([...tops, ...bottoms.map((k) => n - k)])].sort((a, b) => a - b);
  const topSums = new Map<number, number>([[0, 0]]);
  let next = wanted[0] === 0 ? 1 : 0;
  let seen = 0;
  let sum = 0;
  let weighted = 0;
  forEachRun((value, times) => {
    // The run's contributors are the (seen+1)-th … (seen+times)-th highest; the i-th highest weighs n − i + 1.
    while (next < wanted.length && wanted[next] <= seen + times) {
      topSums.set(wanted[next], sum + (wanted[next] - seen) * value);
      next++;
    }
    weighted += value * (times * (n - seen) - (times * (times - 1)) / 2);
    sum += value * times;
    seen += times;
  });
  if (n === 0 || sum === 0) {
    const points = [
      { popShare: 0, valueShare: 0 },
      { popShare: 1, valueShare: 1 },
    ];
    return { count: n, totalValue: 0, gini: 0, points, top1PercentShare: 0, top10PercentShare: 0, top50PercentShare: 0 };
  }
  const share = (top: number) => topSums.get(top)! / sum;
  return {
    count: n,
    totalValue: sum,
    gini: (2 * weighted) / (n * sum) - (n + 1) / n,
    points: bottoms.map((k) => ({ popShare: k / n, valueShare: k === n ? 1 : (sum - topSums.get(n - k)!) / sum })),
    top1PercentShare: share(tops[0]),
    top10PercentShare: share(tops[1]),
    top50PercentShare: share(tops[2]),
  };
}
