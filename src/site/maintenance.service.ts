import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RedisChannel } from '../common/redis/redis-channel';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { ReplayLog } from '../common/replay/replay-log';
import { ReplayTail } from '../common/replay/replay-tail';
import { MaintenanceEvent } from './dto/maintenance.dto';
import { MaintenanceEventEntity } from './entities/maintenance-event.entity';

export interface NewMaintenanceEvent {
  title: string;
  message: string;
  paths?: string[];
  startsAt?: Date | null;
  endsAt?: Date | null;
  enabled?: boolean;
  createdBy?: number | null;
}

/** Changes kept for resuming `site.subscribe` (each entry only says "changed"; the set is read when sent). */
export const SITE_REPLAY_MAXLEN = 100;

/**
 * Site-wide broadcasts: kept in PostgreSQL, and every change announced (on the channel and in the replay log) so
 * open `site.subscribe` streams resend the set. Staff change them through src/maintenance (the `admin.maintenance.*`
 * operations and the CLI), which writes them with their audit row and then calls `announce`.
 */
@Injectable()
export class MaintenanceService implements OnModuleDestroy {
  readonly changes: RedisChannel<{ changed: true }>;
  /** The live end of the replay log in this process, shared by every `site.subscribe` stream. */
  readonly tail: ReplayTail;

  constructor(
    @InjectRepository(MaintenanceEventEntity) private readonly events: Repository<MaintenanceEventEntity>,
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.changes = new RedisChannel(redis, redisKey(config, 'events', 'site'));
    this.tail = new ReplayTail(new ReplayLog(redis, redisKey(config, 'replay', 'site'), { maxLen: SITE_REPLAY_MAXLEN }), this.changes);
  }

  /** A new event's row, not saved yet (the caller saves it in its transaction, then calls `announce`). */
  newRow(input: NewMaintenanceEvent): MaintenanceEventEntity {
    return this.events.create({
      uid: `mnt_${randomBytes(4).toString('hex')}`,
      title: input.title,
      message: input.message,
      paths: input.paths?.length ? input.paths : ['*'],
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      enabled: input.enabled ?? true,
      createdBy: input.createdBy ?? null,
    });
  }

  /** Tells every open `site.subscribe` stream that the set changed (after the change committed). */
  announce(): Promise<void> {
    return this.tail.log.append(this.changes.name, { changed: true }, [{ event: 'maintenance-changed' }]);
  }

  /** The full current set, newest first, as the stream sends it (and `admin.maintenance.list`). */
  async current(): Promise<MaintenanceEvent[]> {
    const rows = await this.events.find({ order: { createdAt: 'DESC' } });
    return rows.map((row) => this.toWire(row));
  }

  /**
   * The events in force now, newest first (`maintenance.list`): enabled, started (no start or one in the past) and
   * not ended. The table holds a handful of rows: read whole.
   */
  async active(now = new Date()): Promise<MaintenanceEvent[]> {
    const rows = await this.events.find({ where: { enabled: true }, order: { createdAt: 'DESC' } });
    return rows.filter((row) => (!row.startsAt || row.startsAt <= now) && (!row.endsAt || row.endsAt > now)).map((row) => this.toWire(row));
  }

  toWire(row: MaintenanceEventEntity): MaintenanceEvent {
    return {
      $schema: `${this.config.publicBaseUrl}/schemas/MaintenanceEvent.json`,
      uid: row.uid,
      title: row.title,
      message: row.message,
      enabled: row.enabled,
      paths: row.paths,
      ...(row.startsAt ? { startsAt: row.startsAt.toISOString() } : {}),
      ...(row.endsAt ? { endsAt: row.endsAt.toISOString() } : {}),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      ...(row.createdBy !== null ? { createdBy: row.createdBy } : {}),
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.changes.close();
  }
}
