import { diffHoldings, uniqueHoldings } from '../../src/badges/holders/holdings-diff';

const at = (day: number) => new Date(Date.UTC(2026, 0, day));
const holding = (badgeId: number, level: number, day = 1, xp = level * 100) => ({ badgeId, level, xp, completionTime: at(day) });

describe('diffHoldings', () => {
  it('should sort badges into removed, added and changed, ignoring unchanged ones', () => {
    const before = [holding(1, 1), holding(2, 3), holding(3, 2), holding(4, 1)];
    const after = [holding(2, 3), holding(3, 3, 5), holding(4, 1, 1, 150), holding(5, 1)];
    expect(diffHoldings(before, after)).toEqual({
      removed: [holding(1, 1)],
      added: [holding(5, 1)],
      changed: [
        { before: holding(3, 2), after: holding(3, 3, 5) },
        { before: holding(4, 1), after: holding(4, 1, 1, 150) },
      ],
    });
  });

  it('should keep the first of duplicated badges, as the insert does', () => {
    expect(uniqueHoldings([holding(1, 2), holding(1, 5), holding(2, 1)])).toEqual([holding(1, 2), holding(2, 1)]);
  });
});
