import fc from 'fast-check';
import { CopyText, copyValue } from '../../src/seed/copy-text';

describe('CopyText', () => {
  type Row = { kind: 'text'; fields: (string | number | null)[] } | { kind: 'fields'; fields: (number | Date | null)[] };
  const textRow = fc.record({
    kind: fc.constant('text' as const),
    fields: fc.array(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.integer(), fc.constant(null)), { maxLength: 6 }),
  });
  // Field by field: integers of any size, any other number (rendered as String renders it), instants and NULL.
  const fieldsRow = fc.record({
    kind: fc.constant('fields' as const),
    fields: fc.array(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.date({ noInvalidDate: true }), fc.constant(null)), {
      minLength: 1,
      maxLength: 6,
    }),
  });
  const write = (text: CopyText, row: Row) => {
    if (row.kind === 'text') return text.add(row.fields.map(copyValue));
    for (const field of row.fields) {
      if (typeof field === 'number') text.int(field);
      else text.instant(field);
    }
    text.end();
  };

  it('should hand over exactly the rows added, as copyValue renders them, in UTF-8, however often it grows', () => {
    const decoder = new TextDecoder();
    fc.assert(
      fc.property(fc.array(fc.oneof(textRow, fieldsRow), { maxLength: 60 }), fc.integer({ min: 1, max: 200 }), (rows, initialBytes) => {
        const text = new CopyText(initialBytes);
        const lines = rows.map((row) => (row.fields as (string | number | Date | null)[]).map(copyValue).join('\t') + '\n');
        for (const row of rows) write(text, row);
        expect(text.rows).toBe(rows.length);
        expect(decoder.decode(text.take())).toBe(lines.join(''));
        expect(text.rows).toBe(0);
        text.addLine('1\t2\n');
        text.int(-3).instant(null).end();
        expect(decoder.decode(text.take())).toBe('1\t2\n-3\t\\N\n');
      }),
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
