import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RedisChannel } from '../common/redis/redis-channel';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { ReplayLog } from '../common/replay/replay-log';
import { ReplayTail } from '../common/replay/replay-tail';
import { DetectedEvent } from './activity-detector';

/** An early craft: among the first this many tracked holders of a badge. */
const EARLY_CRAFT_ORDER = 10;

/** `activity-emitted` entries kept for resuming `activity.streamGlobalFeed` (each holds an event id only). */
export const ACTIVITY_REPLAY_MAXLEN = 10_000;

/** Announces newly committed activity events (by id) to `activity.streamGlobalFeed`. */
export interface ActivityAnnouncement {
  ids: string[];
}

/**
 * Stores the activity events of an update (inside its transaction) and announces them once committed: the ids on
 * the channel, and one `activity-emitted` entry per event (its id; the stream reads the event) in the replay log.
 */
@Injectable()
export class ActivityRecorder implements OnModuleDestroy {
  readonly channel: RedisChannel<ActivityAnnouncement>;
  /** The live end of the replay log in this process, shared by every `activity.streamGlobalFeed` stream. */
  readonly tail: ReplayTail;

  constructor(@Inject(REDIS) redis: Redis, @Inject(APP_CONFIG) config: AppConfig) {
    this.channel = new RedisChannel(redis, redisKey(config, 'events', 'activity'));
    this.tail = new ReplayTail(
      new ReplayLog(redis, redisKey(config, 'replay', 'activity'), { maxLen: ACTIVITY_REPLAY_MAXLEN }),
      this.channel,
    );
  }

  /**
   * Inserts the events, adding a scarcity milestone to each first-time craft that is among the earliest
   * tracked holders of its badge. `heldBefore` are the badges the account already had.
   */
  async record(manager: EntityManager, accountId: number, events: DetectedEvent[], heldBefore: Set<number>): Promise<string[]> {
    const all = [...events];
    for (const event of events) {
      const badge = event.data.badge;
      if (event.eventType !== 'badge_crafted' || !badge || heldBefore.has(badge.badgeId)) continue;
      // Capped one past the milestone: only "among the first N" matters, so the count reads at most N + 1 index
      // entries (earliest first, ix_account_badges_badge_id) however many holders the badge has. It runs inside the
      // writer's transaction, so its cost is paid by every craft.
      const [{ order }] = await manager.query(
        `SELECT count(*)::int AS order FROM (
           SELECT 1 FROM account_badges WHERE badge_id = $1 AND (completion_time, account_id) <= ($2, $3)
            ORDER BY completion_time LIMIT ${EARLY_CRAFT_ORDER + 1}) earlier`,
        [badge.badgeId, badge.completionTime, accountId],
      );
      if (order <= EARLY_CRAFT_ORDER)
        all.push({ ...event, eventType: 'scarcity_milestone', data: { badge, scarcity: { globalCraftOrder: order } } });
    }
    if (!all.length) return [];
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO activity_events (account_id, event_type, occurred_at, data)
       SELECT $1, * FROM unnest($2::text[], $3::timestamptz[], $4::jsonb[]) RETURNING id`,
      [accountId, all.map((e) => e.eventType), all.map((e) => e.occurredAt), all.map((e) => JSON.stringify(e.data))],
    );
    return rows.map((row) => String(row.id));
  }

  /** Stores events found after the update's transaction (rank milestones: the ranks move after its commit). */
  async recordAfter(manager: EntityManager, accountId: number, events: DetectedEvent[]): Promise<string[]> {
    return events.length ? this.record(manager, accountId, events, new Set()) : [];
  }

  async announce(ids: string[]): Promise<void> {
    if (ids.length)
      await this.tail.log.append(
        this.channel.name,
        { ids },
        ids.map((id) => ({ event: 'activity-emitted', data: id })),
      );
  }

  async onModuleDestroy(): Promise<void> {
    await this.channel.close();
  }
}
