import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RedisChannel } from '../../common/redis/redis-channel';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { V1Stats } from '../dto/v1-stats.dto';

/** A committed change to the platform totals: `V1Stats` field → amount to add. */
export interface StatsDelta {
  date: string;
  deltas: Partial<Record<keyof V1Stats, number>>;
}

/** Carries stats deltas from where they are committed (queueing, the update worker) to `stats.subscribe`. */
@Injectable()
export class StatsEvents implements OnModuleDestroy {
  private readonly channel: RedisChannel<StatsDelta>;

  constructor(@Inject(REDIS) redis: Redis, @Inject(APP_CONFIG) config: AppConfig) {
    this.channel = new RedisChannel(redis, redisKey(config, 'events', 'stats'));
  }

  /** Publishes the non-zero deltas, if any. Call after the change is committed. */
  async publish(deltas: StatsDelta['deltas'], at = new Date()): Promise<void> {
    const nonZero = Object.fromEntries(Object.entries(deltas).filter(([, value]) => value !== 0));
    if (Object.keys(nonZero).length) await this.channel.publish({ date: at.toISOString(), deltas: nonZero });
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
