import fc from 'fast-check';
import { IdIndex } from '../../src/common/collections/id-index';

describe('IdIndex', () => {
  // Any account id the platform can have, the ends of the range included (2³¹ − 1 is stored as a wrapped key).
  const accountId = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(0, 1, 2 ** 31 - 2, 2 ** 31 - 1));

  it('should answer as a Map of first-seen order would, however far it grows, and -1 for ids never added', () => {
    fc.assert(
      fc.property(
        fc.array(accountId, { maxLength: 3000 }),
        fc.array(accountId, { maxLength: 200 }),
        fc.integer({ min: 1, max: 64 }),
        (ids, probes, expected) => {
          const index = new IdIndex(expected);
          const reference = new Map<number, number>();
          for (const id of ids) {
            if (!reference.has(id)) reference.set(id, reference.size);
            expect(index.add(id)).toBe(reference.get(id));
          }
          expect(index.size).toBe(reference.size);
          for (const id of [...ids, ...probes]) expect(index.get(id)).toBe(reference.get(id) ?? -1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('should answer the remapped values after remap, every id still found', () => {
    fc.assert(
      fc.property(fc.uniqueArray(accountId, { maxLength: 2000 }), (ids) => {
        const index = new IdIndex(16);
        for (const id of ids) index.add(id);
        const values = Int32Array.from(ids, (_, i) => 7 * i + 3);
        index.remap((i) => values[i]);
        ids.forEach((id, i) => expect(index.get(id)).toBe(7 * i + 3));
      }),
      { numRuns: 100 },
    );
  });
});
