import fc from 'fast-check';
import { TimeSlices } from '../../src/common/scheduling/time-slices';

describe('TimeSlices', () => {
  const byKey = (a: [number, number], b: [number, number]) => a[0] - b[0];

  it('should sort as Array.prototype.sort does, ties in their first order, whatever the run length', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        async (keys, run) => {
          const items = keys.map((key, i): [number, number] => [key, i]);
          const sorted = await new TimeSlices(8, run).sort([...items], byKey);
          expect(sorted).toEqual([...items].sort(byKey));
        },
      ),
    );
  });

  it('should map and filter as Array does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer(), { maxLength: 5000 }), async (values) => {
        const slices = new TimeSlices();
        expect(await slices.map(values, (v, i) => v * 2 + i)).toEqual(values.map((v, i) => v * 2 + i));
        expect(await slices.filter(values, (v) => v % 3 === 0)).toEqual(values.filter((v) => v % 3 === 0));
      }),
    );
  });

  it('should let other work run while it sorts once its slice is spent', async () => {
    const items = Array.from({ length: 200_000 }, (_, i): [number, number] => [(i * 7919) % 1000, i]);
    let turns = 0;
    const other = setInterval(() => turns++, 0);
    const slices = new TimeSlices(0);
    try {
      await slices.sort(items, byKey);
    } finally {
      clearInterval(other);
    }
    expect(slices.pauses).toBeGreaterThan(10);
    expect(turns).toBeGreaterThan(0);
    expect(items.every((item, i) => i === 0 || byKey(items[i - 1], item) <= 0)).toBe(true);
  });

  it('should not give the loop back within a slice', async () => {
    const slices = new TimeSlices(60_000);
    await slices.forEach(100_000, () => undefined);
    expect(slices.pauses).toBe(0);
  });
});
