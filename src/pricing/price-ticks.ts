import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RedisChannel } from '../common/redis/redis-channel';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { ReplayLog } from '../common/replay/replay-log';
import { ReplayTail } from '../common/replay/replay-tail';
import { MarketPriceTick } from './dto/market-price-tick.dto';

/** Ticks kept for resuming `badge.pricing.subscribe` (a pricing cycle changes at most a few hundred sets). */
export const PRICING_REPLAY_MAXLEN = 10_000;

/**
 * Carries price changes from the pricing job (worker) to every `badge.pricing.subscribe` stream (API): each tick
 * on the channel and, in the same step, in the stream's replay log.
 */
@Injectable()
export class PriceTicks implements OnModuleDestroy {
  private readonly channel: RedisChannel<MarketPriceTick>;
  /** The live end of the replay log in this process, shared by every `badge.pricing.subscribe` stream. */
  readonly tail: ReplayTail;

  constructor(@Inject(REDIS) redis: Redis, @Inject(APP_CONFIG) config: AppConfig) {
    this.channel = new RedisChannel(redis, redisKey(config, 'events', 'pricing'));
    this.tail = new ReplayTail(
      new ReplayLog(redis, redisKey(config, 'replay', 'pricing'), { maxLen: PRICING_REPLAY_MAXLEN }),
      this.channel,
    );
  }

  /** Call after the change is committed. */
  publish(tick: MarketPriceTick): Promise<void> {
    return this.tail.log.append(this.channel.name, tick, [{ event: 'market-price-tick', data: tick }]);
  }

  stream(): Observable<MarketPriceTick> {
    return this.channel.listen();
  }

  async onModuleDestroy(): Promise<void> {
    await this.channel.close();
  }
}
