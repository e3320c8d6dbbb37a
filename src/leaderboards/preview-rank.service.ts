import { Injectable } from '@nestjs/common';
import { AccountLookupService, notTracked } from '../account-records/account-lookup.service';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { unprocessable } from '../common/problem/problem.exception';
import { PreviewPlace, RankReader } from '../ranks/rank-reader.service';
import { propertyOf } from '../ranks/rank-scopes';
import { COLUMN_BOARDS } from '../ranks/account-boards';
import {
  PreviewAccount,
  V1LeaderboardPreviewAccountRankRequestBody as Request,
  V1LeaderboardPreviewAccountRankResponseBody as Response,
} from './dto/preview-rank.dto';

/**
 * `leaderboard.previewAccountRank`: where an account ranks (or would rank with a hypothetical score), with
 * its neighbours, on the global board of the rank engine. Order is the board's: score descending, then account
 * id; a hypothetical score goes first among equal scores. Neighbours that chose to be hidden are left out. A score
 * of 0 is unranked: its row's rank is 0.
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
    const value = request.value ?? null;
    // Without an account the script always places the value (null is only for an account it cannot place).
    const place = named
      ? await this.placeNamed(column, request, value)
      : Object.assign((await this.ranks.previewPlace(column, null, value))!, { accountId: -1 });
    const { board, position, ahead, from, window, accountId: me } = place;
    const score = value ?? place.own;
    const rank = ahead + 1;
    // The two others around that place: positions `ahead` and `ahead + 1` once the account itself is taken out.
    const others = window
      .map((entry, i) => Object.assign({}, entry, { position: from + i }))
      .filter((entry) => entry.accountId !== me)
      .map((entry) => Object.assign(entry, { position: position && position < entry.position ? entry.position - 1 : entry.position }));
    const above = others.find((entry) => entry.position === ahead);
    const below = others.find((entry) => entry.position === ahead + 1);
    const neighbours = [above, below].filter((entry) => entry !== undefined).map((entry) => entry.accountId);
    // The cards and which neighbours chose to be hidden, in one statement.
    const { cards, hidden } = await this.accounts.withHidden([...(named ? [me] : []), ...neighbours]);
    if (named && !cards.has(me)) throw notTracked();
    const preview = (accountId: number, rowRank: number, rowScore: number): PreviewAccount | null => {
      const card = cards.get(accountId);
      // A zero value is unranked (rank 0), as on the profile and the board's windows.
      return card ? Object.assign({}, card, { rank: rowScore > 0 ? rowRank : 0, score: rowScore, differenceToUs: rowScore - score }) : null;
    };
    return {
      ...(named ? { ownAccount: preview(me, rank, score) } : {}),
      ...(above && !hidden.has(above.accountId) ? { rankedAbove: preview(above.accountId, rank - 1, above.score) } : {}),
      ...(below && !hidden.has(below.accountId) ? { rankedBelow: preview(below.accountId, rank + 1, below.score) } : {}),
      rankedOutOf: board.population,
    };
  }

  /**
   * The place of a named account. Named by id and in the board's set, the rank engine alone knows its score and
   * place (its card, read with the neighbours', proves it is tracked); otherwise (a vanity, a score of 0, never
   * refreshed, or not tracked: 404) the account is read first and its stored score placed.
   */
  private async placeNamed(column: string, request: Request, value: number | null): Promise<PreviewPlace & { accountId: number }> {
    const accountId = this.lookup.namedId(request);
    const fromBoard = accountId === null ? null : await this.ranks.previewPlace(column, { accountId, onBoard: true }, value);
    if (fromBoard) return Object.assign(fromBoard, { accountId: accountId! });
    const account = await this.lookup.findTracked(request);
    const own = Number((account as unknown as Record<string, number>)[propertyOf(column)]);
    const place = await this.ranks.previewPlace(
      column,
      { accountId: account.accountId, score: own, onBoard: Boolean(account.updatedAt) },
      value,
    );
    return Object.assign(place!, { accountId: account.accountId });
  }
}
