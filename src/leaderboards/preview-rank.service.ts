import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountLookupService } from '../accounts/account-lookup.service';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { unprocessable } from '../common/problem/problem.exception';
import { COLUMN_BOARDS, RANKED } from './account-boards';
import {
  PreviewAccount,
  V1LeaderboardPreviewAccountRankRequestBody as Request,
  V1LeaderboardPreviewAccountRankResponseBody as Response,
} from './dto/preview-rank.dto';

interface Neighbour {
  account_id: number;
  score: number;
}

/**
 * `leaderboard.previewAccountRank`: where an account ranks (or would rank with a hypothetical score), with
 * its neighbours. Order is the board's: score descending, then account id. A hypothetical score goes first
 * among equal scores.
 */
@Injectable()
export class PreviewRankService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async preview(request: Request): Promise<Response> {
    const column = `a.${COLUMN_BOARDS[request.leaderboard]}`;
    const named = request.id || request.vanity;
    if (!named && (request.value === undefined || request.value === null)) {
      throw unprocessable('Name an account, or give a `value` to preview.', [
        { location: 'body', message: 'id, vanity or value is required', value: request },
      ]);
    }
    const account = named ? await this.lookup.findTracked(request) : null;
    const me = account?.accountId ?? -1;
    const hypothetical = request.value !== undefined && request.value !== null;
    const score = hypothetical
      ? request.value!
      : Number((account as unknown as Record<string, number>)[this.property(request.leaderboard)]);
    // Rows ranked before the previewed score: better scores, and equal ones with a lower id unless hypothetical.
    const before = hypothetical ? `${column} > $1` : `(${column} > $1 OR (${column} = $1 AND a.account_id < $2))`;
    const [[{ ahead, total }], [above], [below]] = await Promise.all([
      this.dataSource.query(
        `SELECT count(*) FILTER (WHERE a.account_id <> $2 AND ${before})::int AS ahead, count(*)::int AS total FROM accounts a WHERE ${RANKED}`,
        [score, me],
      ) as Promise<{ ahead: number; total: number }[]>,
      this.dataSource.query(
        `SELECT a.account_id, ${column} AS score FROM accounts a WHERE ${RANKED} AND a.account_id <> $2 AND ${before}
          ORDER BY ${column} ASC, a.account_id DESC LIMIT 1`,
        [score, me],
      ) as Promise<Neighbour[]>,
      this.dataSource.query(
        `SELECT a.account_id, ${column} AS score FROM accounts a WHERE ${RANKED} AND a.account_id <> $2 AND NOT ${before}
          ORDER BY ${column} DESC, a.account_id ASC LIMIT 1`,
        [score, me],
      ) as Promise<Neighbour[]>,
    ]);
    const rank = ahead + 1;
    const cards = await this.accounts.byIds(
      [me, above?.account_id, below?.account_id].filter((id): id is number => id !== undefined && id >= 0),
    );
    const preview = (accountId: number, rowRank: number, rowScore: number): PreviewAccount | null => {
      const card = cards.get(accountId);
      return card ? { ...card, rank: rowRank, score: rowScore, differenceToUs: rowScore - score } : null;
    };
    return {
      ...(account ? { ownAccount: preview(me, rank, score) } : {}),
      ...(above ? { rankedAbove: preview(above.account_id, rank - 1, above.score) } : {}),
      ...(below ? { rankedBelow: preview(below.account_id, rank + 1, below.score) } : {}),
      rankedOutOf: total,
    };
  }

  /** The entity property behind a board's column (`foil_badges` → `foilBadges`, `steam_sets` → `siteScore`). */
  private property(board: Request['leaderboard']): string {
    return COLUMN_BOARDS[board]!.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  }
}
