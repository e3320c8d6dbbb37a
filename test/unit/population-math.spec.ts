import { inequalityOf, logBinEdges, logBucketOf, percentileDisc } from '../../src/analytics/population-math';

/** A scope given as plain values (zeros included), the way the rank replica presents one. */
const valuesOf = (all: number[]) => {
  const scored = all.filter((v) => v > 0).sort((a, b) => b - a);
  return { population: all.length, scored: scored.length, scoreAt: (ahead: number) => scored[ahead] ?? 0 };
};

/** percentile_disc by its definition: the first ascending value whose position / n reaches p. */
const disc = (all: number[], p: number) => {
  const sorted = [...all].sort((a, b) => a - b);
  return sorted.find((_, i) => (i + 1) / sorted.length >= p) ?? 0;
};

/** Gini by its definition: the mean absolute difference over twice the mean. */
const giniByPairs = (values: number[]) => {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  let diff = 0;
  for (const a of values) for (const b of values) diff += Math.abs(a - b);
  return diff / (2 * n * n * mean);
};

describe('population math', () => {
  it('should take percentile_disc over zeros and values as the definition does', () => {
    const samples = [[0], [5], [0, 0, 0, 7], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [0, 0, 3, 3, 3, 9, 100, 100, 2, 0, 0, 1]];
    samples.push(Array.from({ length: 100 }, (_, i) => i));
    for (const all of samples) {
      for (const p of [0, 0.01, 0.5, 0.9, 0.99, 1]) {
        const expected = disc(all, p);
        expect({ all, p, value: percentileDisc(valuesOf(all), p) }).toEqual({ all, p, value: expected });
      }
    }
    expect(percentileDisc(valuesOf([]), 0.5)).toBe(0);
  });

  it('should bin on powers of two: zeros alone, every integer in exactly one bin, the maximum in the last', () => {
    expect(logBinEdges(0)).toEqual([0, 1]);
    expect(logBinEdges(1)).toEqual([0, 1, 2]);
    expect(logBinEdges(8)).toEqual([0, 1, 2, 4, 8, 16]);
    expect(logBinEdges(4_294_967_295).length).toBe(34);
    for (const value of [0, 1, 2, 3, 4, 7, 8, 1023, 1024, 4_294_967_295]) {
      const edges = logBinEdges(value);
      const holding = edges.slice(0, -1).filter((lower, i) => value >= lower && value < edges[i + 1]);
      expect({ value, holding }).toEqual({ value, holding: [logBucketOf(value)] });
      expect(edges.at(-2)).toBe(logBucketOf(value));
    }
  });

  it('should give Gini, Lorenz points and top shares as their definitions do', () => {
    const inequality = (values: number[]) => {
      const desc = [...values].sort((a, b) => b - a);
      return inequalityOf(desc.length, (visit) => desc.forEach(visit));
    };
    const equal = inequality([5, 5, 5, 5]);
    expect(equal.gini).toBeCloseTo(0, 12);
    expect(equal.points.every((p) => Math.abs(p.popShare - p.valueShare) < 1e-12)).toBe(true);
    const one = inequality([0.0001, 0.0001, 0.0001, 1000].map((v) => Math.round(v)).filter((v) => v > 0));
    expect(one.gini).toBe(0);
    const values = Array.from({ length: 257 }, (_, i) => ((i * 7919) % 1000) + 1);
    const result = inequality(values);
    expect(result.gini).toBeCloseTo(giniByPairs(values), 12);
    expect(result.totalValue).toBe(values.reduce((a, b) => a + b, 0));
    const asc = [...values].sort((a, b) => a - b);
    const bottom = (k: number) => asc.slice(0, k).reduce((a, b) => a + b, 0) / result.totalValue;
    const top = (k: number) => 1 - bottom(values.length - k);
    expect(result.top1PercentShare).toBeCloseTo(top(Math.ceil(0.01 * 257)), 12);
    expect(result.top10PercentShare).toBeCloseTo(top(Math.ceil(0.1 * 257)), 12);
    expect(result.top50PercentShare).toBeCloseTo(top(Math.ceil(0.5 * 257)), 12);
    expect(result.points.length).toBe(101);
    expect(result.points[0]).toEqual({ popShare: 0, valueShare: 0 });
    expect(result.points.at(-1)).toEqual({ popShare: 1, valueShare: 1 });
    for (const { popShare, valueShare } of result.points) expect(valueShare).toBeCloseTo(bottom(Math.round(popShare * 257)), 12);
    // Fewer contributors than points: one point per distinct bottom slice.
    expect(inequality([1, 2, 3]).points.map((p) => p.popShare)).toEqual([0, 1 / 3, 2 / 3, 1]);
    expect(inequality([])).toMatchObject({
      count: 0,
      gini: 0,
      totalValue: 0,
      points: [
        { popShare: 0, valueShare: 0 },
        { popShare: 1, valueShare: 1 },
      ],
    });
  });
});
