import fc from 'fast-check';
import { SCOPE_LEVELS, scopeKeysOf } from '../../src/ranks/rank-scopes';
import { PlacedAccount, RankReplica } from '../../src/ranks/replica/rank-replica';

const COLUMNS = ['xp', 'badges'];
/** A few cells sharing scopes at every level, and some without a state or a city. */
const CELLS = [
  'europe|france|idf|paris',
  'europe|france|idf|versailles',
  'europe|france||',
  'europe|germany|berlin|berlin',
  'asia|japan||tokyo',
  '|||',
];

/** What the engine's sets give by brute force: per column, ranks and totals in the five scopes. */
function recomputed(accounts: Map<number, PlacedAccount>, accountId: number) {
  const me = accounts.get(accountId);
  if (!me) return null;
  const mine = scopeKeysOf(me.cell);
  const byColumn = new Map<string, { ranks: number[]; totals: number[] }>();
  COLUMNS.forEach((column, c) => {
    const ranks: number[] = [];
    const totals: number[] = [];
    for (const level of SCOPE_LEVELS) {
      const scope = mine[level];
      if (!scope) {
        ranks.push(0);
        totals.push(0);
        continue;
      }
      const members = [...accounts.values()].filter((other) => scopeKeysOf(other.cell)[level] === scope);
      const scoring = members.filter((other) => other.scores[c] > 0);
      const ahead = scoring.filter(
        (other) => other.scores[c] > me.scores[c] || (other.scores[c] === me.scores[c] && other.accountId < me.accountId),
      );
      // A zero value is unranked: rank 0.
      ranks.push(me.scores[c] > 0 ? ahead.length + 1 : 0);
      totals.push(members.length);
    }
    byColumn.set(column, { ranks, totals });
  });
  return byColumn;
}

const placement = fc.record({
  accountId: fc.integer({ min: 1, max: 40 }),
  cell: fc.constantFrom(...CELLS),
  scores: fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3 })),
});

describe('RankReplica', () => {
  it('answers ranks and totals like a recomputation, through moves between cells and scores dropping to 0', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(placement, { maxLength: 40 }), fc.array(placement, { maxLength: 60 }), async (loaded, placed) => {
        const truth = new Map<number, PlacedAccount>();
        for (const account of loaded) truth.set(account.accountId, account);
        const replica = await RankReplica.build(COLUMNS, truth.values());
        for (const account of placed) {
          replica.place(account);
          truth.set(account.accountId, account);
        }
        expect(replica.accounts).toBe(truth.size);
        for (let accountId = 1; accountId <= 41; accountId++)
          expect(replica.columnRanks(accountId)?.byColumn() ?? null).toEqual(recomputed(truth, accountId));
      }),
      { numRuns: 150 },
    );
  });
});
