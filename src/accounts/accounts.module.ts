import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { AccountAdminService } from './account-admin.service';
import { AccountAppsService } from './account-apps.service';
import { AccountBadgesService } from './account-badges.service';
import { CompareBadgesService } from './compare-badges.service';
import { AccountFriendsService } from './account-friends.service';
import { AccountFriendEntity } from '../account-records/entities/account-friend.entity';
import { AccountProfileService } from './account-profile.service';
import { ProfileBatches } from './profile-batches';
import { LeaderboardHistoryService } from './leaderboard-history.service';
import { RanksModule } from '../ranks/ranks.module';
import { BadgesModule } from '../badges/badges.module';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { SearchModule } from '../search/search.module';
import { AccountsController } from './accounts.controller';
import { AccountStreamController } from './account-stream.controller';
import { OwnAccountController } from './own-account.controller';
import { OwnBadgesService } from './own-badges.service';
import { DataPointsService } from './data-points.service';
import { InventorySetsService } from './inventory-sets.service';
import { FriendGraphService } from './friend-graph.service';
import { FriendPathService } from './friend-path.service';
import { FriendGraphCache } from './friends/friend-graph-cache.service';
import { AccountViewsService } from './views/account-views.service';
import { ViewsReaderService } from './views/views-reader.service';
import { ViewTrends } from './views/view-trends';
import { AccountEventsService } from './events/account-events.service';
import { AccountStreamService } from './events/account-stream.service';
import { AccountUpdateEntity } from '../account-records/entities/account-update.entity';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { PlatformTotalsModule } from '../stats/totals/platform-totals.module';
import { AccountRoleEntity } from '../account-records/entities/account-role.entity';
import { AccountSettingsEntity } from '../account-records/entities/account-settings.entity';
import { AccountEntity } from '../account-records/entities/account.entity';
import { ImagesModule } from '../images/images.module';
import { MarketPricesModule } from '../pricing/market-prices.module';

@Module({
  imports: [
    RanksModule,
    AuthModule,
    AccountRecordsModule,
    PlatformTotalsModule,
    BadgesModule,
    LeaderboardAccountsModule,
    SearchModule,
    ImagesModule,
    MarketPricesModule,
    TypeOrmModule.forFeature([AccountEntity, AccountSettingsEntity, AccountRoleEntity, AccountUpdateEntity, AccountFriendEntity]),
  ],
  controllers: [AccountsController, AccountStreamController, OwnAccountController],
  providers: [
    AccountAdminService,
    AccountProfileService,
    ProfileBatches,
    LeaderboardHistoryService,
    AccountBadgesService,
    CompareBadgesService,
    AccountAppsService,
    AccountFriendsService,
    OwnBadgesService,
    DataPointsService,
    InventorySetsService,
    FriendGraphService,
    FriendGraphCache,
    FriendPathService,
    AccountViewsService,
    ViewTrends,
    ViewsReaderService,
    AccountEventsService,
    AccountStreamService,
  ],
  exports: [TypeOrmModule, AccountAdminService, AccountProfileService, FriendGraphService, FriendGraphCache, AccountViewsService],
})
export class AccountsModule {}
