import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { RedisModule } from './common/redis/redis.module';
import { StreamLifecycleModule } from './common/wire/stream-lifecycle.service';
import { DatabaseModule } from './database/database.module';
import { SharedAnswersModule } from './common/shared-answers/shared-answers';
import { ChangeFeedModule } from './change-feed/change-feed.module';

/**
 * What both processes (API and worker) and the CLI stand on: validated config, PostgreSQL, Redis, stream shutdown,
 * shared answers (src/common/shared-answers), and discovery (which finds the keepers of derived state, see src/derived).
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        ConfigModule.forRoot(config),
        DiscoveryModule,
        DatabaseModule,
        RedisModule,
        StreamLifecycleModule,
        // The log of committed changes the in-process projections follow (src/change-feed).
        ChangeFeedModule,
        // Wherever the area modules (and their controllers) are loaded: the API, and the CLI's module graph.
        SharedAnswersModule,
      ],
      exports: [ConfigModule],
    };
  }
}
