import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformModule } from '../../platform/platform.module';
import { StatsEventsModule } from '../../stats/events/stats-events.module';
import { AccountLookupService } from '../account-lookup.service';
import { AccountUpdateEntity } from '../entities/account-update.entity';
import { AccountEntity } from '../entities/account.entity';
import { AccountUpdateQueueService } from './account-update-queue.service';
import { UpdateProgressService } from './update-progress.service';
import { ACCOUNT_UPDATE_QUEUE } from './update-queue.constants';

/** The producer side of account updates, shared by the API (queueing, progress) and the worker. */
@Module({
  imports: [
    BullModule.registerQueue({ name: ACCOUNT_UPDATE_QUEUE }),
    PlatformModule,
    StatsEventsModule,
    TypeOrmModule.forFeature([AccountEntity, AccountUpdateEntity]),
  ],
  providers: [AccountLookupService, AccountUpdateQueueService, UpdateProgressService],
  exports: [AccountLookupService, AccountUpdateQueueService, UpdateProgressService, PlatformModule, StatsEventsModule],
})
export class AccountUpdatesModule {}
