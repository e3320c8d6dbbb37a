/**
 * # Groups
 *
 * Platform groups: `account.listOwnedGroups` and `leaderboard.getGroupLeaderboard`. The rows (`groups`) are written
 * by the refresh pipeline (src/refresh: a group refresh queue, one read of a group per refresh interval however many
 * members the service tracks); this area reads them, and keeps the `most_members` board (GroupBoard, derived state in
 * Redis). It does not import the pipeline.
 */
import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { GroupBoardModule } from './group-board.module';
import { GroupLeaderboardService } from './group-leaderboard.service';
import { GroupLeaderboardController, OwnedGroupsController } from './groups.controller';
import { OwnedGroupsService } from './owned-groups.service';

@Module({
  imports: [GroupBoardModule, AccountRecordsModule, LeaderboardAccountsModule],
  controllers: [OwnedGroupsController, GroupLeaderboardController],
  providers: [OwnedGroupsService, GroupLeaderboardService],
})
export class GroupsModule {}
