import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccountsModule } from '../accounts/accounts.module';
import { AuthModule } from '../auth/auth.module';
import { BadgeHoldersModule } from '../badges/holders/badge-holders.module';
import { configureLogging, nestLogger } from '../common/logging/pino';
import { QueueModule } from '../common/queue/queue.module';
import { AppConfig } from '../config/app-config';
import { processConfig } from '../config/config.module';
import { CoreModule } from '../core.module';
import { prepareDatabase } from '../database/prepare-database';
import { withoutBootBuilds } from '../derived/versioned-redis-state';
import { DonationsModule } from '../donations/donations.module';
import { ValueLeadersModule } from '../leaderboards/value-leaders/value-leaders.module';
import { RanksModule } from '../ranks/ranks.module';
import { GroupBoardModule } from '../groups/group-board.module';
import { RefreshModule } from '../refresh/refresh.module';
import { SiteModule } from '../site/site.module';
import { StaffModule } from '../staff/staff.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { PlatformTotalsModule } from '../stats/totals/platform-totals.module';

/** The CLI's slice of the provider graph: the same services the API and the worker use, without HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.forRoot(config),
        QueueModule,
        AuthModule,
        AccountsModule,
        SiteModule,
        // The staff changes (roles, maintenance events) the API's admin operations make too, audited alike.
        StaffModule,
        MaintenanceModule,
        DonationsModule,
        // The producer side of the refresh pipeline, for `accounts refresh` (the worker does the updates).
        RefreshModule,
        // Every keeper of derived state, for `derived rebuild`.
        PlatformTotalsModule,
        BadgeHoldersModule,
        ValueLeadersModule,
        RanksModule,
        GroupBoardModule,
      ],
    };
  }
}

/**
 * Boots the application context (after creating and migrating the database, as the API does), runs `work` and
 * closes it. Only commands that need it pay for it: `--help` and argument errors never reach here.
 */
export async function withCliApp(work: (app: INestApplicationContext, config: AppConfig) => Promise<void>): Promise<void> {
  const config = processConfig();
  // Warnings and errors only, on stderr: stdout is the command's output (a new secret is its last line).
  configureLogging({ process: 'cli', level: 'warn', stream: process.stderr });
  await prepareDatabase(config);
  // No keeper builds at boot: `derived rebuild` builds what it names itself (on an empty Redis a boot build would make
  // it build the ranks twice), and no other command reads derived state, so none should wait a build out first.
  const app = await withoutBootBuilds(() => NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: nestLogger() }));
  try {
    await work(app, config);
  } finally {
    await app.close();
  }
}

/** Command output goes to stdout, one line at a time; progress and errors go to stderr. */
export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}
