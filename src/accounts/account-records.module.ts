import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformModule } from '../platform/platform.module';
import { PlatformTotalsModule } from '../stats/totals/platform-totals.module';
import { AccountLookupService } from './account-lookup.service';
import { AccountUpdateEntity } from './entities/account-update.entity';
import { AccountEntity } from './entities/account.entity';
import { UpdateProgressService } from './progress/update-progress.service';

/**
 * The account rows and their update-progress record, for the areas above accounts: the refresh pipeline writes
 * them, leaderboards resolve accounts through them. A lookup may add an unknown account (read from the platform,
 * counted in the platform totals).
 */
@Module({
  imports: [PlatformModule, PlatformTotalsModule, TypeOrmModule.forFeature([AccountEntity, AccountUpdateEntity])],
  providers: [AccountLookupService, UpdateProgressService],
  exports: [AccountLookupService, UpdateProgressService],
})
export class AccountRecordsModule {}
