import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformModule } from '../../platform/platform.module';
import { StatsEventsModule } from '../../stats/events/stats-events.module';
import { PlatformTotalsModule } from '../../stats/totals/platform-totals.module';
import { BadgeHoldersModule } from '../../badges/holders/badge-holders.module';
import { ValueLeadersModule } from '../../leaderboards/value-leaders/value-leaders.module';
import { BoardChangesModule } from '../../leaderboards/changes/board-changes.module';
import { AppOwnerCountsModule } from '../../apps/owners/app-owner-counts.module';
import { ItemClassOwnersModule } from '../../items/owners/item-class-owners.module';
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
    PlatformTotalsModule,
    BadgeHoldersModule,
    ValueLeadersModule,
    BoardChangesModule,
    AppOwnerCountsModule,
    ItemClassOwnersModule,
    TypeOrmModule.forFeature([AccountEntity, AccountUpdateEntity]),
  ],
  providers: [AccountLookupService, AccountUpdateQueueService, UpdateProgressService],
  // The keepers of derived state go along: creating an account counts it, and the worker's writer keeps them in step.
  exports: [
    AccountLookupService,
    AccountUpdateQueueService,
    UpdateProgressService,
    PlatformModule,
    StatsEventsModule,
    PlatformTotalsModule,
    BadgeHoldersModule,
    ValueLeadersModule,
    BoardChangesModule,
    AppOwnerCountsModule,
    ItemClassOwnersModule,
  ],
})
export class AccountUpdatesModule {}
