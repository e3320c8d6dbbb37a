import { entriesOfPacked } from '../../src/exports/export-window';
import { memberOf } from '../../src/ranks/rank-scopes';

describe("the export's packed window (one text per batch instead of an array reply)", () => {
  it('should read members and scores as RankReader.window gives them, ranks from the first position', () => {
    const text = [memberOf(7), '1200', memberOf(42), '1200', memberOf(3), '5'].join(',');
    expect(entriesOfPacked(text, 11)).toEqual([
      { accountId: 7, score: 1200, rank: 11 },
      { accountId: 42, score: 1200, rank: 12 },
      { accountId: 3, score: 5, rank: 13 },
    ]);
  });

  it('should read a score that is not a plain integer with Number(), and an empty window as no entries', () => {
    expect(entriesOfPacked(`${memberOf(9)},2.5,${memberOf(10)},1e+21`, 1)).toEqual([
      { accountId: 9, score: 2.5, rank: 1 },
      { accountId: 10, score: 1e21, rank: 2 },
    ]);
    expect(entriesOfPacked('', 1)).toEqual([]);
  });
});
