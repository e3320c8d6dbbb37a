import { Module } from '@nestjs/common';
import { LeaderboardAccountsModule } from '../accounts/leaderboard-accounts.module';
import { BadgesModule } from '../badges/badges.module';
import { AccountLeaderboardService } from './account-leaderboard.service';
import { LeaderboardBadgesService } from './leaderboard-badges.service';
import { LeaderboardsController } from './leaderboards.controller';

@Module({
  imports: [BadgesModule, LeaderboardAccountsModule],
  controllers: [LeaderboardsController],
  providers: [AccountLeaderboardService, LeaderboardBadgesService],
})
export class LeaderboardsModule {}
