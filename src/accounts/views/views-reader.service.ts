import { Injectable } from '@nestjs/common';
import { holdRawJson } from '../../common/wire/raw-json';
import { AccountLookupService, AccountSelector } from '../../account-records/account-lookup.service';
import { AccountGetTrendingRequestBody, AccountGetTrendingResponseBody, AccountViewStats } from '../dto/views.dto';
import { LeaderboardAccountsService } from '../../account-records/cards/leaderboard-accounts.service';
import { AccountViewsService } from './account-views.service';

/** `account.getViewStats` and `account.getTrending`. */
@Injectable()
export class ViewsReaderService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly views: AccountViewsService,
    private readonly accounts: LeaderboardAccountsService,
  ) {}

  async stats(selector: AccountSelector): Promise<AccountViewStats> {
    const { accountId } = await this.lookup.findTracked(selector);
    const [day, week, month] = await Promise.all([
      this.views.counts(accountId, '24h'),
      this.views.counts(accountId, '7d'),
      this.views.counts(accountId, '30d'),
    ]);
    return {
      total24h: day.total,
      total7d: week.total,
      total30d: month.total,
      unique24h: day.unique,
      unique7d: week.unique,
      unique30d: month.unique,
    };
  }

  async trending(request: AccountGetTrendingRequestBody): Promise<AccountGetTrendingResponseBody> {
    const top = await this.views.trending(request.window, request.limit ?? 100);
    // The cards go out as PostgreSQL wrote them (RawJson): 100 of them are most of the answer's bytes.
    const ids = top.map((row) => row.accountId);
    const [cards, hidden] = await Promise.all([this.accounts.rawByIds(ids), this.accounts.hiddenAmong(ids)]);
    return holdRawJson({
      accounts: top
        // Accounts that chose to be hidden are not trending for anyone.
        .filter((row) => !hidden.has(row.accountId))
        .map((row) => ({
          accountId: row.accountId,
          uniqueViews: row.unique,
          totalViews: row.total,
          account: cards.get(row.accountId) ?? null,
        }))
        .sort((a, b) => b.uniqueViews - a.uniqueViews || b.totalViews - a.totalViews || a.accountId - b.accountId),
    });
  }
}
