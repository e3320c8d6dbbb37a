/**
 * # Exports
 *
 * `account.export` and `leaderboard.export` (issue 62): an account's data or a board's range as NDJSON or CSV, written
 * to the response as it is read, a batch at a time, with backpressure (ExportWriter: a full socket buffer stops the
 * reading until 'drain'; a client that leaves stops it for good), so the memory an export holds is a batch whatever
 * its size. The reads are the existing ones, batch by batch: the rank engine's windows and the boards' row mapping
 * (src/leaderboards), the account reads' row texts (src/accounts), each batch a bounded, index-backed statement.
 * Starts are rate-limited per account and running exports bounded per account and per process (ExportLimits).
 */
import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { AccountsModule } from '../accounts/accounts.module';
import { AuthModule } from '../auth/auth.module';
import { BadgesModule } from '../badges/badges.module';
import { CraftingModule } from '../crafting/crafting.module';
import { LeaderboardsModule } from '../leaderboards/leaderboards.module';
import { RanksModule } from '../ranks/ranks.module';
import { AccountExportService } from './account-export.service';
import { ExportLimits } from './export-limits';
import { ExportWindowReader } from './export-window';
import { ExportsController } from './exports.controller';
import { LeaderboardExportService } from './leaderboard-export.service';

@Module({
  imports: [
    AuthModule,
    AccountRecordsModule,
    LeaderboardAccountsModule,
    AccountsModule,
    BadgesModule,
    CraftingModule,
    LeaderboardsModule,
    RanksModule,
  ],
  controllers: [ExportsController],
  providers: [AccountExportService, LeaderboardExportService, ExportLimits, ExportWindowReader],
})
export class ExportsModule {}
