import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccount } from '../account-records/dto/leaderboard-account.dto';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { STAFF_ROLES } from '../common/auth/require-role.decorator';
import { decodeCursor, encodeCursor } from '../common/wire/cursor';
import { AuditLog } from './audit-log';
import { AdminListAuditLogRequestBody, AdminListAuditLogResponseBody } from './dto/audit-log.dto';

/** The holders of the staff roles, best rating first: an index range of `ix_account_roles_role` per role. */
const STAFF_SQL = `SELECT account_id FROM account_roles WHERE role = ANY($1)
  GROUP BY account_id ORDER BY max(rating) DESC, account_id`;

/** Reads about staff: who they are (`staff.listStaff`) and what they changed (`admin.listAuditLog`). */
@Injectable()
export class StaffDirectory {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cards: LeaderboardAccountsService,
    private readonly audit: AuditLog,
  ) {}

  async staff(): Promise<LeaderboardAccount[]> {
    const ids = ((await this.dataSource.query(STAFF_SQL, [STAFF_ROLES])) as { account_id: number }[]).map((row) => row.account_id);
    const cards = await this.cards.byIds(ids);
    return ids.flatMap((id) => cards.get(id) ?? []);
  }

  async auditLog(request: AdminListAuditLogRequestBody): Promise<AdminListAuditLogResponseBody> {
    // The cursor is checked before any work; its key is the last entry's (createdAt, id), paged by id.
    const after = request.cursor ? decodeCursor(request.cursor, ['timestamp', 'int64']) : null;
    const limit = request.limit ?? 50;
    const rows = await this.audit.list({ targetAccountId: request.accountId, before: after?.[1], limit: limit + 1 });
    const page = rows.slice(0, limit);
    return {
      entries: page.map((row) => ({
        id: row.id,
        actorAccountId: row.actor_account_id,
        via: row.via === 'cli' ? 'cli' : 'api',
        action: row.action,
        targetAccountId: row.target_account_id,
        targetId: row.target_id,
        before: row.before,
        after: row.after,
        createdAt: row.created_at.toISOString(),
      })),
      nextCursor: rows.length > limit ? encodeCursor([page[page.length - 1].created_at.toISOString(), page[page.length - 1].id]) : null,
    };
  }
}
