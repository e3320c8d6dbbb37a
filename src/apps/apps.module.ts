import { Module } from '@nestjs/common';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { BadgesModule } from '../badges/badges.module';
import { AppOwnersService } from './app-owners.service';
import { AppBadgesService } from './app-badges.service';
import { AppsController } from './apps.controller';

@Module({
  imports: [BadgesModule, LeaderboardAccountsModule],
  controllers: [AppsController],
  providers: [AppBadgesService, AppOwnersService],
})
export class AppsModule {}
