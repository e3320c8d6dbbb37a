import fc from 'fast-check';
import { RankedSet } from '../../src/ranks/replica/ranked-set';

type Entry = [score: number, id: number];

/** The boards' order by brute force: higher score first, then the lower id. */
const ahead = ([aScore, aId]: Entry, [bScore, bId]: Entry) => aScore > bScore || (aScore === bScore && aId < bId);
const countAhead = (entries: Entry[], probe: Entry) => entries.filter((entry) => ahead(entry, probe)).length;

const entry = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 300 })) as fc.Arbitrary<Entry>;
const operation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), entry }),
  fc.record({ kind: fc.constant('delete' as const), entry }),
);

describe('RankedSet', () => {
  it('counts the entries ahead like a sorted list, through inserts, removals, splits and emptied blocks', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 60 }),
        fc.array(operation, { maxLength: 200 }),
        fc.array(entry, { maxLength: 20 }),
        (initial, operations, probes) => {
          // Tiny blocks so that a few hundred operations split and empty many of them.
          const unique = [...new Map(initial.map((e) => [e[1], e])).values()];
          const sorted = [...unique].sort((a, b) => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0));
          const order = sorted.map((_, i) => i);
          const set = RankedSet.fromSorted(
            sorted.map(([score]) => score),
            sorted.map(([, id]) => id),
            order,
            4,
          );
          let model: Entry[] = [...sorted];
          for (const {
            kind,
            entry: [score, id],
          } of operations) {
            const present = model.some(([s, i]) => s === score && i === id);
            if (kind === 'insert') {
              // A board holds an account once: an insert of a present id replaces its entry, as the replica does.
              const old = model.find(([, i]) => i === id);
              if (old) {
                expect(set.delete(old[0], old[1])).toBe(true);
                model = model.filter(([, i]) => i !== id);
              }
              set.insert(score, id);
              model.push([score, id]);
            } else {
              expect(set.delete(score, id)).toBe(present);
              if (present) model = model.filter(([s, i]) => !(s === score && i === id));
            }
            expect(set.size).toBe(model.length);
            // Reads between writes: each write leaves the block starts after it stale until a read sums them.
            for (const probe of [[score, id] as Entry, ...probes.slice(0, 3)])
              expect(set.countAhead(probe[0], probe[1])).toBe(countAhead(model, probe));
          }
          for (const probe of [...probes, ...model]) expect(set.countAhead(probe[0], probe[1])).toBe(countAhead(model, probe));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes entries again once emptied, in one block and on pages', () => {
    for (const initial of [2, 40]) {
      // Blocks of 4: 2 entries stay in the one block of their own, 40 are loaded onto pages.
      const set = RankedSet.fromSorted(
        Array.from({ length: initial }, (_, i) => initial - i),
        Array.from({ length: initial }, (_, i) => i + 1),
        Array.from({ length: initial }, (_, i) => i),
        4,
      );
      for (let i = 0; i < initial; i++) expect(set.delete(initial - i, i + 1)).toBe(true);
      expect(set.size).toBe(0);
      expect(set.countAhead(1, 1)).toBe(0);
      for (let id = 1; id <= 30; id++) set.insert(1 + (id % 7), id);
      expect(set.size).toBe(30);
      // Score 7 ranks first; of its ids 6, 13, 20 and 27, two are ahead of 20.
      expect(set.countAhead(7, 20)).toBe(2);
      expect(set.countAhead(0, 1)).toBe(30);
    }
  });

  it('counts the entries ahead like a sorted list in full-size blocks, before and after inserts split them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 50_000 })), { minLength: 300, maxLength: 4_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 61 }), fc.integer({ min: 1, max: 50_000 })), { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 50_001, max: 60_000 })), { maxLength: 400 }),
        (initial, probes, inserted) => {
          const unique = [...new Map(initial.map((e) => [e[1], e as Entry])).values()];
          const sorted = [...unique].sort((a, b) => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0));
          // The default block size: blocks of hundreds of entries, each look-up's last step a search inside one.
          const set = RankedSet.fromSorted(
            sorted.map(([score]) => score),
            sorted.map(([, id]) => id),
            sorted.map((_, i) => i),
          );
          const check = (model: Entry[]) => {
            for (const probe of [...(probes as Entry[]), ...model.filter((_, i) => i % 7 === 0)])
              expect(set.countAhead(probe[0], probe[1])).toBe(countAhead(model, probe));
          };
          check(sorted);
          // Inserts fill blocks up and split them; the directory is built again after them.
          const model = [...sorted];
          for (const [id, score] of new Map(inserted.map(([score, id]) => [id, score]))) {
            set.insert(score, id);
            model.push([score, id]);
          }
          check(model);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps large sets in full blocks and answers ranks at both ends', () => {
    const n = 5_000;
    const scores = Uint32Array.from({ length: n }, (_, i) => n - i);
    const ids = Uint32Array.from({ length: n }, (_, i) => i + 1);
    const set = RankedSet.fromSorted(
      scores,
      ids,
      Uint32Array.from({ length: n }, (_, i) => i),
    );
    expect(set.countAhead(n, 1)).toBe(0);
    expect(set.countAhead(1, n)).toBe(n - 1);
    expect(set.countAhead(0, 1)).toBe(n);
    set.insert(n + 1, 99_999);
    expect(set.countAhead(n, 1)).toBe(1);
    expect(set.delete(1, n)).toBe(true);
    expect(set.countAhead(0, 1)).toBe(n);
    expect(set.bytes).toBeGreaterThanOrEqual(n * 8);
  });
});
