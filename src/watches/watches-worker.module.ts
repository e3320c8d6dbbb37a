import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { ActivityRecorder } from '../activity/activity-recorder';
import { PriceTicks } from '../pricing/price-ticks';
import { RanksModule } from '../ranks/ranks.module';
import { WebhooksWorkerModule } from '../webhooks/webhooks-worker.module';
import { WatchDelivery } from './watch-delivery';
import { WatchEvaluator } from './watch-evaluator.service';

/**
 * The worker side of watches (see watches.module.ts): the evaluator on the pricing, account and activity channels,
 * and the delivery through the webhooks' dispatcher and the owner's stream. The channels' readers (PriceTicks,
 * ActivityRecorder) are provided here as the webhooks worker provides them, without their areas' modules.
 */
@Module({
  imports: [AccountRecordsModule, RanksModule, WebhooksWorkerModule],
  providers: [PriceTicks, ActivityRecorder, WatchDelivery, WatchEvaluator],
})
export class WatchesWorkerModule {}
