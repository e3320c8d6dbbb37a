import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { RankReader, RankedEntry } from '../ranks/rank-reader.service';
import { scopeKeysOf } from '../ranks/rank-scopes';
import { V1AccountLeaderboardAccount, V1LeaderboardGetAccountLeaderboardRequestBody as Request } from './dto/account-leaderboard.dto';

export interface ColumnBoardPage {
  accounts: (V1AccountLeaderboardAccount | null)[];
  rankedOutOf: number;
  ownAccount?: V1AccountLeaderboardAccount;
  hiddenRanks?: number[];
}

/**
 * A column board (xp, badges, playtime, …) in a scope, read from the rank engine: the window, the caller's own
 * rank and the board size in a handful of O(log N) Redis calls, then one load of the window's account cards.
 * Hidden accounts keep their rank (so nobody's rank reveals who hides); their rows come back null.
 */
@Injectable()
export class ColumnBoardService {
  constructor(
    private readonly ranks: RankReader,
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async page(request: Request, column: string, start: number, end: number, callerAccountId: number): Promise<ColumnBoardPage> {
    const board = await this.ranks.scope(column, request.location);
    const entries = await this.ranks.window(board, start, end);
    const own = entries.some((entry) => entry.accountId === callerAccountId)
      ? null
      : await this.callerEntry(board, column, callerAccountId);
    const ids = [...entries, ...(own ? [own] : [])].map((entry) => entry.accountId);
    const [cards, hidden] = await Promise.all([this.accounts.byIds(ids), this.hidden(ids)]);
    const toRow = (entry: RankedEntry): V1AccountLeaderboardAccount | null => {
      const card = cards.get(entry.accountId);
      return card ? { ...card, rank: entry.rank, appPlaytime: null } : null;
    };
    const visible = (entry: RankedEntry) => entry.accountId === callerAccountId || !hidden.has(entry.accountId);
    const hiddenRanks = entries.filter((entry) => !visible(entry)).map((entry) => entry.rank);
    return {
      accounts: entries.map((entry) => (visible(entry) ? toRow(entry) : null)),
      rankedOutOf: board.population,
      ...(own ? { ownAccount: toRow(own) ?? undefined } : {}),
      ...(hiddenRanks.length ? { hiddenRanks } : {}),
    };
  }

  /** The caller's own entry, when the caller is a refreshed account inside the board's scope. */
  private async callerEntry(
    board: Awaited<ReturnType<RankReader['scope']>>,
    column: string,
    accountId: number,
  ): Promise<RankedEntry | null> {
    if (!accountId) return null;
    const cell = await this.ranks.cellOf(board.version, accountId);
    if (cell === null) return null;
    const scopes = Object.values(scopeKeysOf(cell));
    if (!board.scopes.some((scope) => scopes.includes(scope))) return null;
    const [row]: { score: number }[] = await this.dataSource.query(`SELECT ${column} AS score FROM accounts WHERE account_id = $1`, [
      accountId,
    ]);
    if (!row) return null;
    return { accountId, score: Number(row.score), rank: await this.ranks.rankOf(board, accountId, Number(row.score)) };
  }

  private async hidden(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows: { account_id: number }[] = await this.dataSource.query(
      'SELECT account_id FROM account_settings WHERE hidden AND account_id = ANY($1)',
      [ids],
    );
    return new Set(rows.map((row) => row.account_id));
  }
}
