import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformModule } from '../platform/platform.module';
import { PlatformTotalsModule } from '../stats/totals/platform-totals.module';
import { AccountLookupService } from './account-lookup.service';
import { AccountUpdateEntity } from './entities/account-update.entity';
import { AccountEntity } from './entities/account.entity';
import { UpdateProgressService } from './progress/update-progress.service';

/**
 * # Account records
 *
 * What every area knows of an account, below all of them (docs/architecture.md, "Areas and the way they import"):
 *
 * - **The account tables** (`entities/`): the account row and what hangs off it (badges, apps, friends, groups,
 *   roles, settings, update runs). The pipeline writes them; the areas read them.
 * - **Lookup** (`AccountLookupService`, this module): an `AccountSearch` to a stored account. A lookup may add an
 *   unknown account (read from the platform, counted in the platform totals).
 * - **Cards** (`cards/`, LeaderboardAccountsModule): the `LeaderboardAccount` of every listing (board pages,
 *   crafters, owners, feeds, friend paths), written by PostgreSQL as JSON in one statement per listing, or rendered
 *   from each HTTP process's card replica (`card-replica/`), which follows every writer of a card through the
 *   change feed (src/change-feed).
 * - **Update progress** (`progress/`): the record of a queued update the pipeline writes and `account.updateProgress`
 *   and the webhooks read.
 *
 * The account.* operations themselves live in `accounts/`, above the areas whose pieces they use.
 */
@Module({
  imports: [PlatformModule, PlatformTotalsModule, TypeOrmModule.forFeature([AccountEntity, AccountUpdateEntity])],
  providers: [AccountLookupService, UpdateProgressService],
  exports: [AccountLookupService, UpdateProgressService],
})
export class AccountRecordsModule {}
