import { Injectable } from '@nestjs/common';
import { AccountLookupService } from '../accounts/account-lookup.service';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { unprocessable } from '../common/problem/problem.exception';
import { RankReader } from '../ranks/rank-reader.service';
import { propertyOf } from '../ranks/rank-scopes';
import { COLUMN_BOARDS } from './account-boards';
import {
  PreviewAccount,
  V1LeaderboardPreviewAccountRankRequestBody as Request,
  V1LeaderboardPreviewAccountRankResponseBody as Response,
} from './dto/preview-rank.dto';

/**
 * `leaderboard.previewAccountRank`: where an account ranks (or would rank with a hypothetical score), with
 * its neighbours, on the global board of the rank engine. Order is the board's: score descending, then account
 * id; a hypothetical score goes first among equal scores. Neighbours that chose to be hidden are left out.
 */
@Injectable()
export class PreviewRankService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly accounts: LeaderboardAccountsService,
    private readonly ranks: RankReader,
  ) {}

  async preview(request: Request): Promise<Response> {
    const column = COLUMN_BOARDS[request.leaderboard]!;
    const named = request.id || request.vanity;
    if (!named && (request.value === undefined || request.value === null)) {
      throw unprocessable('Name an account, or give a `value` to preview.', [
        { location: 'body.id', message: 'id, vanity or value is required' },
      ]);
    }
    const account = named ? await this.lookup.findTracked(request) : null;
    const me = account?.accountId ?? -1;
    const hypothetical = request.value !== undefined && request.value !== null;
    const own = account ? Number((account as unknown as Record<string, number>)[propertyOf(column)]) : 0;
    const score = hypothetical ? request.value! : own;
    const board = await this.ranks.scope(column, null);
    const onBoard = Boolean(account?.updatedAt);
    // Where the account really is (0: not on the board), and how many others rank before the previewed score.
    const position = onBoard ? await this.ranks.rankOf(board, me, own) : 0;
    const ahead =
      hypothetical || !onBoard ? (await this.ranks.rankOfScore(board, score)) - 1 - (onBoard && own > score ? 1 : 0) : position - 1;
    const rank = ahead + 1;
    // The two others around that place: positions `ahead` and `ahead + 1` once the account itself is taken out.
    const from = Math.max(1, ahead - 1);
    const window = await this.ranks.window(board, from, ahead + 2);
    const others = window
      .map((entry, i) => Object.assign({}, entry, { position: from + i }))
      .filter((entry) => entry.accountId !== me)
      .map((entry) => Object.assign(entry, { position: position && position < entry.position ? entry.position - 1 : entry.position }));
    const above = others.find((entry) => entry.position === ahead);
    const below = others.find((entry) => entry.position === ahead + 1);
    const neighbours = [above, below].filter((entry) => entry !== undefined).map((entry) => entry.accountId);
    // The cards and which neighbours chose to be hidden, in one statement.
    const { cards, hidden } = await this.accounts.withHidden([...(account ? [me] : []), ...neighbours]);
    const preview = (accountId: number, rowRank: number, rowScore: number): PreviewAccount | null => {
      const card = cards.get(accountId);
      return card ? Object.assign({}, card, { rank: rowRank, score: rowScore, differenceToUs: rowScore - score }) : null;
    };
    return {
      ...(account ? { ownAccount: preview(me, rank, score) } : {}),
      ...(above && !hidden.has(above.accountId) ? { rankedAbove: preview(above.accountId, rank - 1, above.score) } : {}),
      ...(below && !hidden.has(below.accountId) ? { rankedBelow: preview(below.accountId, rank + 1, below.score) } : {}),
      rankedOutOf: board.population,
    };
  }
}
