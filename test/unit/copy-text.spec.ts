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
