import { Module } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { CallBudget, MarketCallPace } from './client/call-budget';
import { PlatformClient } from './client/platform-client';
import { LocationNames } from './location-names.service';
import { LookupAnswers } from './spending/lookup-answers';
import { PlatformSpending } from './spending/platform-spending';

/**
 * The platform's Web API client, configured once. Its base URLs point at the real platform or at the simulator;
 * the code path is the same. Every process shares one daily call budget and one market call pace in Redis; what
 * requests may spend of the budget is PlatformSpending's (spending/platform-spending.ts).
 */
@Module({
  providers: [
    {
      provide: MarketCallPace,
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: Redis) =>
        new MarketCallPace(redis, config.platform.marketCallsPerMinute, redisKey(config, 'platform', 'market-pace')),
    },
    {
      provide: CallBudget,
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: Redis) =>
        new CallBudget(redis, config.platform.dailyCallBudget, `${redisKey(config, 'platform', 'budget')}:`),
    },
    {
      provide: PlatformClient,
      inject: [APP_CONFIG, MarketCallPace, CallBudget],
      useFactory: (config: AppConfig, marketPace: MarketCallPace, budget: CallBudget) =>
        new PlatformClient({
          apiUrl: config.platform.apiUrl,
          communityUrl: config.platform.communityUrl,
          apiKey: config.platform.apiKey,
          timeoutMs: config.platform.timeoutMs,
          maxRetries: config.platform.maxRetries,
          retryBaseMs: 250,
          budget,
          marketPace,
        }),
    },
    LocationNames,
    PlatformSpending,
    LookupAnswers,
  ],
  exports: [PlatformClient, MarketCallPace, CallBudget, LocationNames, PlatformSpending, LookupAnswers],
})
export class PlatformModule {}
