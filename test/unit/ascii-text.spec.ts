import fc from 'fast-check';
import { AsciiText } from '../../src/common/wire/ascii-text';

describe('AsciiText', () => {
  it('should write what concatenation writes, numbers as String() writes them, however long the text grows', () => {
    const text = new AsciiText();
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.nat(), fc.maxSafeNat(), fc.constantFrom(0, 9, 10, 99, 100, 2 ** 31 - 1), fc.string({ unit: 'binary-ascii' })),
          {
            maxLength: 600,
          },
        ),
        (parts) => {
          const printable = parts.map((part) => (typeof part === 'string' ? part.replace(/[^\x20-\x7e]/g, '') : part));
          text.start();
          for (const part of printable)
            if (typeof part === 'number') text.int(part);
            else text.bytes(AsciiText.bytesOf(part)).char(44);
          expect(text.done()).toBe(printable.map((part) => (typeof part === 'number' ? String(part) : `${part},`)).join(''));
        },
      ),
    );
  });

  it('should refuse what it cannot write as ASCII digits or text', () => {
    const text = new AsciiText().start();
    expect(() => text.int(-1)).toThrow(RangeError);
    expect(() => text.int(1.5)).toThrow(RangeError);
    expect(() => AsciiText.bytesOf('é')).toThrow('not printable ASCII');
  });
});
