import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ActivityModule } from '../activity/activity.module';
import { AppsModule } from '../apps/apps.module';
import { AppConfig } from '../config/app-config';
import { ItemsModule } from '../items/items.module';
import { LeaderboardsModule } from '../leaderboards/leaderboards.module';
import { StatsModule } from '../stats/stats.module';
import { WorkerModule } from '../worker.module';

/**
 * The module graph the seed rebuilds derived state in: the worker's (which keeps derived state in step with
 * updates) plus every area module of the API without its HTTP layer or embedded simulator, so that a keeper is
 * found whichever area registers it.
 */
@Module({})
export class SeedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SeedModule,
      imports: [WorkerModule.forRoot(config), AccountsModule, ActivityModule, AppsModule, ItemsModule, LeaderboardsModule, StatsModule],
    };
  }
}
