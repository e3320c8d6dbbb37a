import { Module } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { CallBudget } from './client/call-budget';
import { PlatformClient } from './client/platform-client';
import { LocationNames } from './location-names.service';

/**
 * The platform's Web API client, configured once. Its base URLs point at the real platform or at the simulator;
 * the code path is the same. Every process shares one daily call budget in Redis.
 */
@Module({
  providers: [
    {
      provide: PlatformClient,
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: Redis) =>
        new PlatformClient({
          apiUrl: config.platform.apiUrl,
          communityUrl: config.platform.communityUrl,
          apiKey: config.platform.apiKey,
          timeoutMs: config.platform.timeoutMs,
          maxRetries: config.platform.maxRetries,
          retryBaseMs: 250,
          budget: new CallBudget(redis, config.platform.dailyCallBudget, `${redisKey(config, 'platform', 'budget')}:`),
        }),
    },
    LocationNames,
  ],
  exports: [PlatformClient, LocationNames],
})
export class PlatformModule {}
