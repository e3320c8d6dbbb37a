import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RedisChannel } from '../common/redis/redis-channel';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { MarketPriceTick } from './dto/market-price-tick.dto';

/** Carries price changes from the pricing job (worker) to every `badge.pricing.subscribe` stream (API). */
@Injectable()
export class PriceTicks implements OnModuleDestroy {
  private readonly channel: RedisChannel<MarketPriceTick>;

  constructor(@Inject(REDIS) redis: Redis, @Inject(APP_CONFIG) config: AppConfig) {
    this.channel = new RedisChannel(redis, redisKey(config, 'events', 'pricing'));
  }

  /** Call after the change is committed. */
  publish(tick: MarketPriceTick): Promise<void> {
    return this.channel.publish(tick);
  }

  stream(): Observable<MarketPriceTick> {
    return this.channel.listen();
  }

  async onModuleDestroy(): Promise<void> {
    await this.channel.close();
  }
}
