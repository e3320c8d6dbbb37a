import fc from 'fast-check';
import { CopyText, copyValue } from '../../src/seed/copy-text';

describe('CopyText', () => {
  it('should hand over exactly the rows added, as UTF-8, however often it encodes on the way', () => {
    const decoder = new TextDecoder();
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.integer(), fc.constant(null)), { maxLength: 6 }), {
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 200 }),
        (rows, flushChars) => {
          const text = new CopyText(flushChars);
          const lines = rows.map((row) => row.map(copyValue).join('\t') + '\n');
          for (const row of rows) text.add(row.map(copyValue));
          expect(text.rows).toBe(rows.length);
          expect(decoder.decode(text.take())).toBe(lines.join(''));
          expect(text.rows).toBe(0);
          text.addLine('1\t2\n');
          expect(decoder.decode(text.take())).toBe('1\t2\n');
        },
      ),
    );
  });
});

describe('copyValue', () => {
  it('should render an instant exactly as Date#toISOString does, on any day of any year', () => {
    // Every instant a Date can hold, and the seed's own range (whole seconds within decades of now) more densely.
    const anyInstant = fc.integer({ min: -8.64e15, max: 8.64e15 });
    const seedInstant = fc.integer({ min: 0, max: 4e9 }).map((seconds) => seconds * 1000);
    fc.assert(
      fc.property(fc.oneof(anyInstant, seedInstant), (ms) => {
        const date = new Date(ms);
        expect(copyValue(date)).toBe(date.toISOString());
        expect(copyValue(date)).toBe(date.toISOString()); // again, from the day's cached part
      }),
      { numRuns: 2000 },
    );
    for (const ms of [0, -1, 86_399_999, -86_400_000, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001])
      expect(copyValue(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('should refuse an invalid date as Date#toISOString does', () => {
    expect(() => copyValue(new Date(NaN))).toThrow(RangeError);
  });
});
