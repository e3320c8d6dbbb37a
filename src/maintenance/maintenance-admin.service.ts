import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { notFound, unprocessable } from '../common/problem/problem.exception';
import { MaintenanceEvent } from '../site/dto/maintenance.dto';
import { MaintenanceEventEntity } from '../site/entities/maintenance-event.entity';
import { MaintenanceService, NewMaintenanceEvent } from '../site/maintenance.service';
import { AuditLog, StaffActor } from '../staff/audit-log';

/** What an update may change (UpdateRequestBody, the CLI's enable/disable): any subset. */
export interface MaintenanceChange {
  title?: string;
  message?: string;
  enabled?: boolean;
  paths?: string[];
  startsAt?: Date;
  endsAt?: Date;
  clearStartsAt?: boolean;
  clearEndsAt?: boolean;
}

/**
 * # Maintenance events, as staff change them
 *
 * `admin.maintenance.create/update/delete` and the CLI's `maintenance` commands: each change is written with its
 * audit row (staff/audit-log.ts) in one transaction, then announced to the open `site.subscribe` streams and the
 * webhooks (MaintenanceService.announce). `maintenance.list` (public) shows the events in force now;
 * `admin.maintenance.list` every event, disabled and scheduled ones included.
 */
@Injectable()
export class MaintenanceAdmin {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: MaintenanceService,
    private readonly audit: AuditLog,
  ) {}

  async create(actor: StaffActor, input: NewMaintenanceEvent): Promise<MaintenanceEvent> {
    checkSchedule(input.startsAt ?? null, input.endsAt ?? null);
    const row = this.events.newRow({ ...input, createdBy: actor.via === 'api' ? actor.accountId : null });
    const saved = await this.dataSource.transaction(async (manager) => {
      const saved = this.events.toWire(await manager.save(row));
      await this.audit.record(manager, actor, {
        action: 'admin.maintenance.create',
        targetId: saved.uid,
        before: null,
        after: withoutSchema(saved),
      });
      return saved;
    });
    await this.events.announce();
    return saved;
  }

  async update(actor: StaffActor, uid: string, change: MaintenanceChange): Promise<MaintenanceEvent> {
    if (change.startsAt && change.clearStartsAt)
      throw unprocessable('Give `startsAt` or `clearStartsAt`, not both.', [
        { location: 'body.clearStartsAt', message: 'conflicts with startsAt' },
      ]);
    if (change.endsAt && change.clearEndsAt)
      throw unprocessable('Give `endsAt` or `clearEndsAt`, not both.', [
        { location: 'body.clearEndsAt', message: 'conflicts with endsAt' },
      ]);
    const updated = await this.dataSource.transaction(async (manager) => {
      const row = await manager.findOne(MaintenanceEventEntity, { where: { uid }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw notFound(`No maintenance event ${uid}.`);
      const before = withoutSchema(this.events.toWire(row));
      if (change.title !== undefined) row.title = change.title;
      if (change.message !== undefined) row.message = change.message;
      if (change.enabled !== undefined) row.enabled = change.enabled;
      if (change.paths !== undefined) row.paths = change.paths.length ? change.paths : ['*'];
      if (change.startsAt !== undefined) row.startsAt = change.startsAt;
      if (change.clearStartsAt) row.startsAt = null;
      if (change.endsAt !== undefined) row.endsAt = change.endsAt;
      if (change.clearEndsAt) row.endsAt = null;
      checkSchedule(row.startsAt, row.endsAt);
      const saved = this.events.toWire(await manager.save(row));
      await this.audit.record(manager, actor, { action: 'admin.maintenance.update', targetId: uid, before, after: withoutSchema(saved) });
      return saved;
    });
    await this.events.announce();
    return updated;
  }

  /** Hard-deletes the event; 404 when there is none. */
  async remove(actor: StaffActor, uid: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await manager.findOne(MaintenanceEventEntity, { where: { uid }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw notFound(`No maintenance event ${uid}.`);
      await manager.delete(MaintenanceEventEntity, { uid });
      await this.audit.record(manager, actor, {
        action: 'admin.maintenance.delete',
        targetId: uid,
        before: withoutSchema(this.events.toWire(row)),
        after: null,
      });
    });
    await this.events.announce();
  }

  all(): Promise<MaintenanceEvent[]> {
    return this.events.current();
  }

  active(): Promise<MaintenanceEvent[]> {
    return this.events.active();
  }
}

function checkSchedule(startsAt: Date | null, endsAt: Date | null): void {
  if (startsAt && endsAt && endsAt <= startsAt)
    throw unprocessable('`endsAt` must be after `startsAt`.', [
      { location: 'body.endsAt', message: 'not after startsAt', value: endsAt.toISOString() },
    ]);
}

/** The event as the audit log keeps it (its `$schema` link is the wire's, not the event's). */
function withoutSchema(event: MaintenanceEvent): Record<string, unknown> {
  const { $schema: _schema, ...rest } = event;
  return rest;
}
