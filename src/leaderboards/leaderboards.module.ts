import { Module } from '@nestjs/common';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { BoardChangesModule } from './changes/board-changes.module';
import { BadgesModule } from '../badges/badges.module';
import { RanksModule } from '../ranks/ranks.module';
import { BoardPageService } from './board-page.service';
import { LowestRanksService } from './lowest-ranks.service';
import { AccountLeaderboardService } from './account-leaderboard.service';
import { LeaderboardBadgesService } from './leaderboard-badges.service';
import { PreviewRankService } from './preview-rank.service';
import { BucketLeadersService } from './bucket-leaders.service';
import { ChangesService } from './changes.service';
import { LeaderboardsController } from './leaderboards.controller';

@Module({
  imports: [BadgesModule, LeaderboardAccountsModule, AccountRecordsModule, BoardChangesModule, RanksModule],
  controllers: [LeaderboardsController],
  providers: [
    AccountLeaderboardService,
    BoardPageService,
    LowestRanksService,
    LeaderboardBadgesService,
    PreviewRankService,
    BucketLeadersService,
    ChangesService,
  ],
  exports: [AccountLeaderboardService, BoardPageService],
})
export class LeaderboardsModule {}
