import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityRecorder } from '../activity/activity-recorder';
import { ChangeSnapshotRefresher } from '../leaderboards/changes/change-snapshot-refresher.service';
import { ChangeSweeper } from '../leaderboards/changes/change-sweeper.service';
import { RanksModule } from '../ranks/ranks.module';
import { AccountUpdateEntity } from '../account-records/entities/account-update.entity';
import { AccountEntity } from '../account-records/entities/account.entity';
import { AccountUpdateProcessor } from './account-update.processor';
import { AccountUpdater } from './account-updater.service';
import { RefreshModule } from './refresh.module';
import { AccountWriter } from './account-writer';
import { PlatformSnapshotReader } from './platform-snapshot';
import { UpdateReconciler } from './update-reconciler.service';
import { GroupBoardModule } from '../groups/group-board.module';
import { GROUP_REFRESH_QUEUE } from './group-refresh.constants';
import { GroupRefreshQueue } from './group-refresh-queue.service';
import { GroupRefresher } from './group-refresher.service';
import { GroupRefreshProcessor } from './group-refresh.processor';

/**
 * The consumer side: the BullMQ workers that refresh accounts from the platform, and the groups their updates saw
 * (one read per group per refresh interval). Worker process only.
 */
@Module({
  imports: [
    RefreshModule,
    RanksModule,
    GroupBoardModule,
    BullModule.registerQueue({ name: GROUP_REFRESH_QUEUE }),
    TypeOrmModule.forFeature([AccountEntity, AccountUpdateEntity]),
  ],
  providers: [
    ActivityRecorder,
    PlatformSnapshotReader,
    AccountWriter,
    AccountUpdater,
    AccountUpdateProcessor,
    UpdateReconciler,
    ChangeSweeper,
    ChangeSnapshotRefresher,
    GroupRefresher,
    GroupRefreshQueue,
    GroupRefreshProcessor,
  ],
})
export class RefreshWorkerModule {}
