import { SCOPE_LEVELS } from './rank-scopes';

const LEVELS = SCOPE_LEVELS.length;

/** One account's ranks on one board: ColumnRanks's entries as AccountRankReader answers them per board. */
export interface BoardRanks {
  /** Ranks in the order global, region, country, state, city; 0 where the account has no such location. */
  ranks: number[];
  /** Ranked accounts in each of those scopes, same order. */
  totals: number[];
}

/**
 * One account's ranks on every ranked column in its five scopes, flat: the rank on `columns[c]` at scope level `l`
 * (global, region, country, state, city) is `ranks[c * 5 + l]`, 0 where the account has no such location; `totals[l]`
 * is that scope's population, the same on every column.
 *
 * The profile reads an account's 75 ranks on every `account.getInfo`. Built as a Map of arrays per column, then a Map
 * per board, then rank strings per board, they cost a tenth of the answer's API time (docs/performance-history.md,
 * "The profile's ranks as text"); flat, they are written straight into the answer (profile-text.ts).
 */
export class ColumnRanks {
  constructor(
    readonly columns: readonly string[],
    readonly ranks: Int32Array,
    readonly totals: Int32Array,
  ) {
    if (ranks.length !== columns.length * LEVELS || totals.length !== LEVELS) throw new Error('ColumnRanks: sizes do not match');
  }

  /** The ranks of Map entries by column (as the engine's profile script answers them), in `columns`' order. */
  static fromMap(columns: readonly string[], byColumn: ReadonlyMap<string, BoardRanks>): ColumnRanks {
    const ranks = new Int32Array(columns.length * LEVELS);
    const totals = new Int32Array(LEVELS);
    columns.forEach((column, c) => {
      const entry = byColumn.get(column);
      if (!entry) throw new Error(`ColumnRanks: no ranks for column ${column}`);
      ranks.set(entry.ranks, c * LEVELS);
      totals.set(entry.totals);
    });
    return new ColumnRanks(columns, ranks, totals);
  }

  /** The same ranks as a Map by column of plain arrays. */
  byColumn(): Map<string, BoardRanks> {
    const totals = Array.from(this.totals);
    return new Map(
      this.columns.map((column, c) => [
        column,
        { ranks: Array.from(this.ranks.subarray(c * LEVELS, (c + 1) * LEVELS)), totals: [...totals] },
      ]),
    );
  }
}
