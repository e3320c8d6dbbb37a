/**
 * # The refresh pipeline
 *
 * `account.queueUpdate` (and `account.refreshInventory`) claim an account in PostgreSQL and enqueue one BullMQ job;
 * the worker process (RefreshWorkerModule) reads the account from the platform (`platform-snapshot.ts`), turns the
 * snapshot into rows (`snapshot-rows.ts`, shared with the seed), writes them in one transaction
 * (`account-writer.ts`) and then keeps every derived state in step: the maintained aggregates of the other areas,
 * the rank engine, rank history. Progress (pending → in_progress → completed) is published through the accounts
 * area's UpdateProgressService.
 *
 * This area sits above the areas it writes: it imports accounts, badges, apps, items, stats, leaderboards and
 * ranks; none of them imports it.
 */
import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { AccountEntity } from '../account-records/entities/account.entity';
import { AccountUpdateEntity } from '../account-records/entities/account-update.entity';
import { AppOwnerCountsModule } from '../apps/owners/app-owner-counts.module';
import { BadgeHoldersModule } from '../badges/holders/badge-holders.module';
import { ItemClassOwnersModule } from '../items/owners/item-class-owners.module';
import { BoardChangesModule } from '../leaderboards/changes/board-changes.module';
import { ValueLeadersModule } from '../leaderboards/value-leaders/value-leaders.module';
import { PlatformModule } from '../platform/platform.module';
import { StatsEventsModule } from '../stats/events/stats-events.module';
import { PlatformTotalsModule } from '../stats/totals/platform-totals.module';
import { AccountUpdateQueueService } from './account-update-queue.service';
import { RefreshController } from './refresh.controller';
import { ACCOUNT_UPDATE_QUEUE } from './update-queue.constants';
import { GROUP_REFRESH_QUEUE } from './group-refresh.constants';
import { StaffQueuesController } from './staff-queues/staff-queues.controller';
import { StaffQueuesService } from './staff-queues/staff-queues.service';

/** The platform client and the keepers of derived state the writer keeps in step (and queueing counts in). */
const KEEPERS = [
  PlatformModule,
  StatsEventsModule,
  PlatformTotalsModule,
  BadgeHoldersModule,
  ValueLeadersModule,
  BoardChangesModule,
  AppOwnerCountsModule,
  ItemClassOwnersModule,
];

/** The producer side of account refreshes, shared by the API (queueing) and the worker. */
@Module({
  imports: [
    BullModule.registerQueue({ name: ACCOUNT_UPDATE_QUEUE }, { name: GROUP_REFRESH_QUEUE }),
    AccountRecordsModule,
    ...KEEPERS,
    TypeOrmModule.forFeature([AccountEntity, AccountUpdateEntity]),
  ],
  controllers: [RefreshController, StaffQueuesController],
  providers: [AccountUpdateQueueService, StaffQueuesService],
  // The keepers of derived state go along: the worker's writer keeps them in step.
  exports: [AccountRecordsModule, AccountUpdateQueueService, ...KEEPERS],
})
export class RefreshModule {}
