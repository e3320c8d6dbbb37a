import { ExportBatch, readPacked } from '../../src/exports/export-window';
import { memberOf } from '../../src/ranks/rank-scopes';

describe("the export's packed window (one text per batch instead of an array reply)", () => {
  it('should read members and scores as RankReader.window gives them, ranks from the first position', () => {
    const batch = new ExportBatch(10);
    readPacked([memberOf(7), '1200', memberOf(42), '1200', memberOf(3), '5'].join(','), 11, batch);
    expect(batch.length).toBe(3);
    expect(batch.entries(0, 10)).toEqual([
      { accountId: 7, score: 1200, rank: 11 },
      { accountId: 42, score: 1200, rank: 12 },
      { accountId: 3, score: 5, rank: 13 },
    ]);
    expect(batch.entries(1, 2)).toEqual([{ accountId: 42, score: 1200, rank: 12 }]);
  });

  it('should read a score that is not a plain integer with Number(), and an empty window as no entries', () => {
    const batch = new ExportBatch(4);
    readPacked(`${memberOf(9)},2.5,${memberOf(10)},1e+21`, 1, batch);
    expect(batch.entries(0, 4)).toEqual([
      { accountId: 9, score: 2.5, rank: 1 },
      { accountId: 10, score: 1e21, rank: 2 },
    ]);
    readPacked('', 1, batch);
    expect(batch.length).toBe(0);
    expect(batch.entries(0, 4)).toEqual([]);
  });

  it('should hold a zero tail as unranked rows and refill the same columns batch after batch', () => {
    const batch = new ExportBatch(3);
    readPacked(`${memberOf(1)},9,${memberOf(2)},8,${memberOf(3)},7`, 5, batch);
    batch.fillUnranked([40, 41]);
    expect(batch.entries(0, 3)).toEqual([
      { accountId: 40, score: 0, rank: 0 },
      { accountId: 41, score: 0, rank: 0 },
    ]);
    expect(batch.lastAccountId).toBe(41);
  });
});
