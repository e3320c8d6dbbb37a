import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { RedisModule } from './common/redis/redis.module';
import { DatabaseModule } from './database/database.module';

/** What both processes (API and worker) and the CLI stand on: validated config, PostgreSQL and Redis. */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CoreModule, imports: [ConfigModule.forRoot(config), DatabaseModule, RedisModule], exports: [ConfigModule] };
  }
}
