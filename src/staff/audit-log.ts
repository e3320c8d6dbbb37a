import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * # Audit log
 *
 * Every change staff make, through the API (`admin.*` operations) or the operator's CLI (`role grant`, `maintenance
 * create`, …), is appended to `audit_log` in the change's own transaction: who (`actor`: the staff account, or null
 * with `via: 'cli'` for the operator at the database's machine), what (`action`, the account or object changed),
 * when, and the state before and after. A change that rolls back leaves no row; a row never changes.
 * `admin.listAuditLog` reads it newest first, by `id` (keyset paging on the primary key).
 */

/** Who makes a staff change: a staff session's account, or the operator's CLI. */
export type StaffActor = { via: 'api'; accountId: number } | { via: 'cli' };

export const CLI_ACTOR: StaffActor = { via: 'cli' };

export interface AuditEntry {
  action: string;
  targetAccountId?: number | null;
  targetId?: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditRow {
  id: string;
  actor_account_id: number | null;
  via: string;
  action: string;
  target_account_id: number | null;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: Date;
}

export interface AuditQuery {
  /** Only the entries about this account. */
  targetAccountId?: number;
  /** Entries older than this id (the previous page's `nextCursor`). */
  before?: string;
  limit: number;
}

@Injectable()
export class AuditLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends an entry with `manager`, in the transaction of the change it records. */
  async record(manager: EntityManager, actor: StaffActor, entry: AuditEntry): Promise<void> {
    await manager.query(
      `INSERT INTO audit_log (actor_account_id, via, action, target_account_id, target_id, before, after)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        actor.via === 'api' ? actor.accountId : null,
        actor.via,
        entry.action,
        entry.targetAccountId ?? null,
        entry.targetId ?? null,
        JSON.stringify(entry.before ?? null),
        JSON.stringify(entry.after ?? null),
      ],
    );
  }

  /** Newest first; `limit` rows at most, after the cursor. Served by the primary key or `ix_audit_log_target`. */
  async list(query: AuditQuery): Promise<AuditRow[]> {
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    if (query.targetAccountId !== undefined) {
      parameters.push(query.targetAccountId);
      conditions.push(`target_account_id = $${parameters.length}`);
    }
    if (query.before !== undefined) {
      parameters.push(query.before);
      conditions.push(`id < $${parameters.length}::bigint`);
    }
    parameters.push(query.limit);
    return this.dataSource.query(
      `SELECT id, actor_account_id, via, action, target_account_id, target_id, before, after, created_at FROM audit_log
       ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${parameters.length}`,
      parameters,
    );
  }
}
