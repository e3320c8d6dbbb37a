import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RedisChannel } from '../../common/redis/redis-channel';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { ReplayLog } from '../../common/replay/replay-log';
import { ReplayTail } from '../../common/replay/replay-tail';
import { V1Stats } from '../dto/v1-stats.dto';

/** A committed change to the platform totals: `V1Stats` field → amount to add. */
export interface StatsDelta {
  date: string;
  deltas: Partial<Record<keyof V1Stats, number>>;
}

/** `stats-updated` events kept for resuming `stats.subscribe` (a few per account update: hours of a busy day). */
export const STATS_REPLAY_MAXLEN = 10_000;

/**
 * Carries stats deltas from where they are committed (queueing, the update worker) to `stats.subscribe`: each
 * delta is published on the channel and appended to the stream's replay log (`stats-updated`) in one step.
 */
@Injectable()
export class StatsEvents implements OnModuleDestroy {
  private readonly channel: RedisChannel<StatsDelta>;
  /** The live end of the replay log in this process, shared by every `stats.subscribe` stream. */
  readonly tail: ReplayTail;

  constructor(@Inject(REDIS) redis: Redis, @Inject(APP_CONFIG) config: AppConfig) {
    this.channel = new RedisChannel(redis, redisKey(config, 'events', 'stats'));
    this.tail = new ReplayTail(new ReplayLog(redis, redisKey(config, 'replay', 'stats'), { maxLen: STATS_REPLAY_MAXLEN }), this.channel);
  }

  /** Publishes the non-zero deltas, if any. Call after the change is committed. */
  async publish(deltas: StatsDelta['deltas'], at = new Date()): Promise<void> {
    const nonZero = Object.fromEntries(Object.entries(deltas).filter(([, value]) => value !== 0));
    if (!Object.keys(nonZero).length) return;
    const delta: StatsDelta = { date: at.toISOString(), deltas: nonZero };
    await this.tail.log.append(this.channel.name, delta, [{ event: 'stats-updated', data: delta }]);
  }

  stream(): Observable<StatsDelta> {
    return this.channel.listen();
  }

  /** Resolves once the listeners' subscription is active (see RedisChannel.ready). */
  ready(): Promise<void> {
    return this.channel.ready();
  }

  async onModuleDestroy(): Promise<void> {
    await this.channel.close();
  }
}
