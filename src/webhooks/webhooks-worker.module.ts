import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { ActivityFeedService } from '../activity/activity-feed.service';
import { ActivityRecorder } from '../activity/activity-recorder';
import { BadgesModule } from '../badges/badges.module';
import { MaintenanceEventEntity } from '../site/entities/maintenance-event.entity';
import { MaintenanceService } from '../site/maintenance.service';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDeliveryPruner } from './webhook-delivery-pruner';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookEventSource } from './webhook-event-source.service';
import { WEBHOOK_DELIVERY_QUEUE } from './webhook-queue.constants';

/**
 * The worker side of webhooks (see webhooks.module.ts): the channels' listener, the dispatcher and the delivery
 * queue's processor, and the pruner of old delivery rows. The activity reader and the broadcast service are provided here as the refresh worker
 * provides ActivityRecorder, without their areas' controllers.
 */
@Module({
  imports: [
    AccountRecordsModule,
    LeaderboardAccountsModule,
    BadgesModule,
    TypeOrmModule.forFeature([MaintenanceEventEntity]),
    BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE }),
  ],
  providers: [
    ActivityRecorder,
    ActivityFeedService,
    MaintenanceService,
    WebhookDispatcher,
    WebhookEventSource,
    WebhookDeliveryProcessor,
    WebhookDeliveryPruner,
  ],
  // Watches (src/watches) send their fired events through the same dispatcher.
  exports: [WebhookDispatcher],
})
export class WebhooksWorkerModule {}
