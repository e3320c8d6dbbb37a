import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { BoardScope, RankReader, RankedEntry } from '../ranks/rank-reader.service';
import { scopeKeysOf } from '../ranks/rank-scopes';
import { V1AccountLeaderboardAccount } from './dto/account-leaderboard.dto';

export interface BoardPage {
  accounts: (V1AccountLeaderboardAccount | null)[];
  rankedOutOf: number;
  ownAccount?: V1AccountLeaderboardAccount;
  hiddenRanks?: number[];
}

/** What a board adds to each row (`appPlaytime`, `badgeInfo`), from the window's entries. */
export type RowExtras = (entries: RankedEntry[]) => Promise<(entry: RankedEntry) => Partial<V1AccountLeaderboardAccount>>;

/**
 * One page of a board read from the rank engine: the window, the caller's own entry and the board size in a few
 * O(log N) Redis calls, then one load of the window's account cards. Hidden accounts keep their rank (so nobody's
 * rank reveals who hides); their rows come back null and their ranks in `hiddenRanks`.
 */
@Injectable()
export class BoardPageService {
  constructor(
    private readonly ranks: RankReader,
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** A column board: callers scoring 0 are on it without being in its set (they share the last rank). */
  async columnPage(board: BoardScope, start: number, end: number, callerAccountId: number): Promise<BoardPage> {
    return this.page(
      board,
      start,
      end,
      callerAccountId,
      () => this.columnCaller(board, callerAccountId),
      async () => () => ({}),
    );
  }

  /** A per-app or per-badge board: every entry is in its set. */
  async setPage(board: BoardScope, start: number, end: number, callerAccountId: number, extras: RowExtras): Promise<BoardPage> {
    return this.page(
      board,
      start,
      end,
      callerAccountId,
      () => (callerAccountId ? this.ranks.entryOf(board, callerAccountId) : Promise.resolve(null)),
      extras,
    );
  }

  private async page(
    board: BoardScope,
    start: number,
    end: number,
    callerAccountId: number,
    caller: () => Promise<RankedEntry | null>,
    extras: RowExtras,
  ): Promise<BoardPage> {
    const entries = await this.ranks.window(board, start, end);
    const own = entries.some((entry) => entry.accountId === callerAccountId) ? null : await caller();
    const { rows, hiddenRanks, ownRow } = await this.rowsOf(entries, callerAccountId, extras, own);
    return {
      accounts: rows,
      rankedOutOf: board.population,
      ...(own ? { ownAccount: ownRow ?? undefined } : {}),
      ...(hiddenRanks.length ? { hiddenRanks } : {}),
    };
  }

  /**
   * The rows of a window's entries (one load of their cards and of the board's extras): null for accounts that chose
   * to be hidden (the caller always sees itself), their ranks in `hiddenRanks`; `own` is mapped beside them. Shared by
   * the windows above and by `leaderboard.export`, which walks a board batch by batch (src/exports).
   */
  async rowsOf(
    entries: RankedEntry[],
    callerAccountId: number,
    extras: RowExtras,
    own: RankedEntry | null = null,
  ): Promise<{ rows: (V1AccountLeaderboardAccount | null)[]; hiddenRanks: number[]; ownRow: V1AccountLeaderboardAccount | null }> {
    const all = [...entries, ...(own ? [own] : [])];
    const ids = all.map((entry) => entry.accountId);
    const [{ cards, hidden }, extra] = await Promise.all([this.accounts.withHidden(ids), extras(all)]);
    const toRow = (entry: RankedEntry): V1AccountLeaderboardAccount | null => {
      const card = cards.get(entry.accountId);
      // Object.assign onto a new object, not `{ ...card, rank }`: V8 builds that spread on a slow path (see toAppBadge).
      return card ? Object.assign({}, card, { rank: entry.rank, appPlaytime: null }, extra(entry)) : null;
    };
    const visible = (entry: RankedEntry) => entry.accountId === callerAccountId || !hidden.has(entry.accountId);
    return {
      rows: entries.map((entry) => (visible(entry) ? toRow(entry) : null)),
      hiddenRanks: entries.filter((entry) => !visible(entry)).map((entry) => entry.rank),
      ownRow: own ? toRow(own) : null,
    };
  }

  /** The caller's own entry on a column board, when the caller is a refreshed account inside the board's scope. */
  private async columnCaller(board: BoardScope, accountId: number): Promise<RankedEntry | null> {
    if (!accountId) return null;
    const cell = await this.ranks.cellOf(board.version, accountId);
    if (cell === null) return null;
    const scopes = Object.values(scopeKeysOf(cell));
    if (!board.scopes.some((scope) => scopes.includes(scope))) return null;
    const [row]: { score: number }[] = await this.dataSource.query(`SELECT ${board.column} AS score FROM accounts WHERE account_id = $1`, [
      accountId,
    ]);
    if (!row) return null;
    return { accountId, score: Number(row.score), rank: await this.ranks.rankOf(board, accountId, Number(row.score)) };
  }
}
