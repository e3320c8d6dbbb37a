import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { publicBadgeId } from '../badges/badge-catalog.service';
import { notFound, unprocessable } from '../common/problem/problem.exception';
import { V1AccountBadgeBookmark } from './dto/badge-bookmarks.dto';
import { BOOKMARK_LOCKS, BOOKMARKS_PER_ACCOUNT } from './preference-limits';

/** Badge ids are PostgreSQL integers: `bdg_9999999999` matches the pattern but names no badge. */
const MAX_BADGE_ID = 2_147_483_647;

/** account.bookmarkBadge and account.listBadgeBookmarks: badges of the catalogue an account keeps a list of. */
@Injectable()
export class BadgeBookmarksService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Bookmarking twice keeps the first time; unbookmarking a badge that is not bookmarked changes nothing. */
  async bookmark(accountId: number, publicId: string, bookmark: boolean): Promise<void> {
    const badgeId = Number(publicId.slice('bdg_'.length));
    const unknown = () => notFound(`Badge ${publicId} is not known to this service.`);
    if (badgeId > MAX_BADGE_ID) throw unknown();
    if (!bookmark) {
      const [, removed]: [unknown[], number] = await this.dataSource.query(
        'DELETE FROM account_badge_bookmarks WHERE account_id = $1 AND badge_id = $2',
        [accountId, badgeId],
      );
      if (removed === 0 && !(await this.badgeExists(badgeId))) throw unknown();
      return;
    }
    // Under a lock on the account (advisory, for this transaction), so concurrent bookmarks cannot overshoot the limit.
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [BOOKMARK_LOCKS, accountId]);
      const [state]: { badge: boolean; held: boolean; count: number }[] = await manager.query(
        `SELECT EXISTS (SELECT 1 FROM badges WHERE id = $2) AS badge,
                EXISTS (SELECT 1 FROM account_badge_bookmarks WHERE account_id = $1 AND badge_id = $2) AS held,
                (SELECT count(*)::int FROM account_badge_bookmarks WHERE account_id = $1) AS count`,
        [accountId, badgeId],
      );
      if (!state.badge) throw unknown();
      if (state.held) return;
      if (state.count >= BOOKMARKS_PER_ACCOUNT) {
        throw unprocessable(`An account holds at most ${BOOKMARKS_PER_ACCOUNT} bookmarks; remove one first. Nothing was stored.`, [
          { location: 'body.badgeId', message: `would be bookmark ${state.count + 1}; at most ${BOOKMARKS_PER_ACCOUNT}` },
        ]);
      }
      await manager.query('INSERT INTO account_badge_bookmarks (account_id, badge_id, bookmarked_at) VALUES ($1, $2, now())', [
        accountId,
        badgeId,
      ]);
    });
  }

  async list(accountId: number): Promise<V1AccountBadgeBookmark[]> {
    const rows: { badge_id: number; bookmarked_at: Date }[] = await this.dataSource.query(
      'SELECT badge_id, bookmarked_at FROM account_badge_bookmarks WHERE account_id = $1 ORDER BY bookmarked_at DESC, badge_id DESC',
      [accountId],
    );
    return rows.map((row) => ({ badgeId: publicBadgeId(row.badge_id), bookmarkedAt: row.bookmarked_at.toISOString() }));
  }

  private async badgeExists(badgeId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM badges WHERE id = $1', [badgeId]);
    return rows.length > 0;
  }
}
