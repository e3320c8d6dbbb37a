import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { levelWalkSql } from '../common/sql/level-walk';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { decodeCursor, encodeCursor } from '../common/wire/cursor';
import { AppListOwnersRequestBody, AppListOwnersResponseBody } from './dto/list-owners.dto';

/** A page of an app's owners after a position, most minutes first (see levelWalkSql). */
const OWNERS_PAGE = levelWalkSql({ table: 'account_apps', group: 'app_id', groupType: 'int', value: 'playtime', columns: ['playtime'] });

/**
 * `app.listOwners`: who owns an app, most minutes played first, a page at a time: keyset paging on
 * ix_account_apps_app_playtime, with the owner count from the maintained app_owner_counts.
 */
@Injectable()
export class AppOwnersService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(request: AppListOwnersRequestBody, callerAccountId: number): Promise<AppListOwnersResponseBody> {
    const maxPageSize = await this.accounts.maxPageSize(callerAccountId, 'max_find_owners');
    const limit = Math.min(request.limit ?? maxPageSize, maxPageSize);
    const after = request.cursor ? decodeCursor(request.cursor, ['int32', 'int32']) : null;
    const [owners, rows] = await Promise.all([
      this.trackedOwners(request.appId),
      this.dataSource.query(OWNERS_PAGE, [[request.appId], 0, limit + 1, after?.[0] ?? null, after?.[1] ?? null]) as Promise<
        { account_id: number; playtime: number }[]
      >,
    ]);
    const page = rows.slice(0, limit);
    // An owner who chose to be hidden keeps its place on the page, as null (the caller still sees itself).
    const { cards, hidden } = await this.accounts.withHidden(page.map((row) => row.account_id));
    const last = page[page.length - 1];
    return {
      owners: page.map((row) => {
        const card = hidden.has(row.account_id) && row.account_id !== callerAccountId ? undefined : cards.get(row.account_id);
        return card ? Object.assign({}, card, { playtime: row.playtime }) : null;
      }),
      maxPageSize,
      ...(rows.length > limit ? { nextCursor: encodeCursor([last.playtime, last.account_id]) } : {}),
      trackedOwners: owners,
    };
  }

  private async trackedOwners(appId: number): Promise<number> {
    const [row]: { owners: number }[] = await this.dataSource.query('SELECT owners FROM app_owner_counts WHERE app_id = $1', [appId]);
    return row?.owners ?? 0;
  }
}
