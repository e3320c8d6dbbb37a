import { ValueHistogram } from '../../src/analytics/histograms/value-histogram';
import { inequalityOf, inequalityOfRuns, percentileDisc } from '../../src/analytics/population-math';

/** A deterministic pseudo-random sequence (no flaky seeds). */
const lcg = (seed: number) => () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;

/** percentile_disc by its definition over plain values. */
const disc = (all: number[], p: number) => {
  const sorted = [...all].sort((a, b) => a - b);
  return sorted.find((_, i) => (i + 1) / sorted.length >= p) ?? 0;
};

describe('value histogram', () => {
  it('should answer as the plain values do, through adds and removals, mapped up or down', () => {
    const random = lcg(7);
    const histogram = new ValueHistogram();
    let all: number[] = [];
    for (let step = 0; step < 2_000; step++) {
      if (all.length && random() < 0.35) {
        const [gone] = all.splice(Math.floor(random() * all.length), 1);
        histogram.add(gone, -1);
      } else {
        const value = random() < 0.2 ? 0 : Math.floor(random() ** 3 * 300);
        all.push(value);
        histogram.add(value, 1);
      }
      if (step % 97 !== 0) continue;
      // As stored, and as "today − day" (the account age: a decreasing map, negatives at 0).
      for (const [key, map, ascending] of [
        [0, (v: number) => v, true],
        [250, (v: number) => 250 - v, false],
      ] as const) {
        const values = all.map((v) => Math.max(0, map(v)));
        const view = histogram.view(key, map, ascending);
        const scored = values.filter((v) => v > 0).sort((a, b) => b - a);
        expect(view.population).toBe(values.length);
        expect(view.scored).toBe(scored.length);
        expect(view.sum).toBe(scored.reduce((a, b) => a + b, 0));
        for (let i = 0; i <= scored.length; i += 7) expect(view.scoreAt(i)).toBe(scored[i] ?? 0);
        for (const at of [1, 2, 50, 100, 299, 1000]) expect(view.countAtLeast(at)).toBe(scored.filter((v) => v >= at).length);
        for (const p of [0.5, 0.9, 0.99]) expect(percentileDisc(view, p)).toBe(disc(values, p));
        const byRuns = inequalityOfRuns(view.scored, (visit) => view.forEachRun(visit));
        const byValues = inequalityOf(scored.length, (visit) => scored.forEach((v) => visit(v)));
        expect(byRuns.count).toBe(byValues.count);
        expect(byRuns.totalValue).toBe(byValues.totalValue);
        expect(byRuns.gini).toBeCloseTo(byValues.gini, 12);
        expect(byRuns.top1PercentShare).toBeCloseTo(byValues.top1PercentShare, 12);
        expect(byRuns.top10PercentShare).toBeCloseTo(byValues.top10PercentShare, 12);
        expect(byRuns.top50PercentShare).toBeCloseTo(byValues.top50PercentShare, 12);
        byRuns.points.forEach((point, i) => {
          expect(point.popShare).toBe(byValues.points[i].popShare);
          expect(point.valueShare).toBeCloseTo(byValues.points[i].valueShare, 12);
        });
      }
    }
    // Emptied: no distinct value left behind.
    for (const value of all) histogram.add(value, -1);
    all = [];
    expect(histogram.distinct).toBe(0);
    expect(histogram.view(0, (v) => v, true).population).toBe(0);
  });
});
