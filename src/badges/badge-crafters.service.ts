import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { notFound } from '../common/problem/problem.exception';
import { decodeCursor, encodeCursor } from '../common/wire/cursor';
import { BadgeListCraftersRequestBody, BadgeListCraftersResponseBody } from './dto/list-crafters.dto';

/** `badge.listCrafters`: who crafted a badge, earliest first, a page at a time (keyset paging on the index). */
@Injectable()
export class BadgeCraftersService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(request: BadgeListCraftersRequestBody, callerAccountId: number): Promise<BadgeListCraftersResponseBody> {
    // The cursor is checked before any work: a forged one is a 422 whether or not the badge exists.
    const after = request.cursor ? decodeCursor(request.cursor, ['timestamp', 'int32']) : null;
    const badgeId = Number(request.badgeId.slice('bdg_'.length));
    const [badge]: { holders: number }[] = await this.dataSource.query(
      // The maintained holder count (badge_holder_stats), not a count over the holders.
      'SELECT COALESCE(s.holders, 0) AS holders FROM badges b LEFT JOIN badge_holder_stats s ON s.badge_id = b.id WHERE b.id = $1::bigint',
      [badgeId],
    );
    if (!badge) throw notFound(`Badge ${request.badgeId} is not known to this service.`);
    const maxPageSize = await this.accounts.maxPageSize(callerAccountId, 'max_badge_crafters');
    const limit = Math.min(request.limit ?? maxPageSize, maxPageSize);
    const rows: { account_id: number; completion_time: Date }[] = await this.dataSource.query(
      `SELECT account_id, completion_time FROM account_badges
        WHERE badge_id = $1 AND ($2::timestamptz IS NULL OR (completion_time, account_id) > ($2::timestamptz, $3::int))
        ORDER BY completion_time, account_id LIMIT $4`,
      [badgeId, after?.[0] ?? null, after?.[1] ?? 0, limit + 1],
    );
    const page = rows.slice(0, limit);
    // A crafter who chose to be hidden keeps its place on the page, as null (the caller still sees itself).
    const { cards, hidden } = await this.accounts.withHidden(page.map((row) => row.account_id));
    const last = page[page.length - 1];
    return {
      crafters: page.map((row) => {
        const card = hidden.has(row.account_id) && row.account_id !== callerAccountId ? undefined : cards.get(row.account_id);
        return card ? Object.assign({}, card, { completedAt: row.completion_time.toISOString() }) : null;
      }),
      maxPageSize,
      ...(rows.length > limit ? { nextCursor: encodeCursor([last.completion_time.toISOString(), last.account_id]) } : {}),
      trackedHolders: badge.holders,
    };
  }
}
