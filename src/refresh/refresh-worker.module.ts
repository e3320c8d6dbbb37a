import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityRecorder } from '../activity/activity-recorder';
import { ChangeSweeper } from '../leaderboards/changes/change-sweeper.service';
import { RanksModule } from '../ranks/ranks.module';
import { AccountUpdateEntity } from '../accounts/entities/account-update.entity';
import { AccountEntity } from '../accounts/entities/account.entity';
import { AccountUpdateProcessor } from './account-update.processor';
import { AccountUpdater } from './account-updater.service';
import { RefreshModule } from './refresh.module';
import { AccountWriter } from './account-writer';
import { PlatformSnapshotReader } from './platform-snapshot';
import { StuckUpdateRecovery } from './stuck-update-recovery.service';

/** The consumer side: the BullMQ worker that refreshes accounts from the platform. Worker process only. */
@Module({
  imports: [RefreshModule, RanksModule, TypeOrmModule.forFeature([AccountEntity, AccountUpdateEntity])],
  providers: [
    ActivityRecorder,
    PlatformSnapshotReader,
    AccountWriter,
    AccountUpdater,
    AccountUpdateProcessor,
    StuckUpdateRecovery,
    ChangeSweeper,
  ],
})
export class RefreshWorkerModule {}
