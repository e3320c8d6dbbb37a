import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { decodeCursor, encodeCursor } from '../common/wire/cursor';
import { AppListOwnersRequestBody, AppListOwnersResponseBody } from './dto/list-owners.dto';

/** `app.listOwners`: who owns an app, most minutes played first, a page at a time (keyset paging on the index). */
@Injectable()
export class AppOwnersService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(request: AppListOwnersRequestBody, callerAccountId: number): Promise<AppListOwnersResponseBody> {
    const maxPageSize = await this.accounts.maxPageSize(callerAccountId);
    const limit = Math.min(request.limit ?? maxPageSize, maxPageSize);
    const after = request.cursor ? decodeCursor<[number, number]>(request.cursor, ['number', 'number']) : null;
    const [[{ owners }], rows] = await Promise.all([
      this.dataSource.query('SELECT count(*)::int AS owners FROM account_apps WHERE app_id = $1', [request.appId]) as Promise<
        { owners: number }[]
      >,
      this.dataSource.query(
        `SELECT account_id, playtime FROM account_apps
          WHERE app_id = $1 AND ($2::int IS NULL OR playtime < $2 OR (playtime = $2 AND account_id > $3))
          ORDER BY playtime DESC, account_id LIMIT $4`,
        [request.appId, after?.[0] ?? null, after?.[1] ?? 0, limit + 1],
      ) as Promise<{ account_id: number; playtime: number }[]>,
    ]);
    const page = rows.slice(0, limit);
    const cards = await this.accounts.byIds(page.map((row) => row.account_id));
    const last = page[page.length - 1];
    return {
      owners: page.map((row) => {
        const card = cards.get(row.account_id);
        return card ? { ...card, playtime: row.playtime } : null;
      }),
      maxPageSize,
      ...(rows.length > limit ? { nextCursor: encodeCursor([last.playtime, last.account_id]) } : {}),
      trackedOwners: owners,
    };
  }
}
