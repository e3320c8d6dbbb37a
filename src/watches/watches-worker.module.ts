import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { RanksModule } from '../ranks/ranks.module';
import { WebhooksWorkerModule } from '../webhooks/webhooks-worker.module';
import { WatchDelivery } from './watch-delivery';
import { WatchEvaluator } from './watch-evaluator.service';

/**
 * The worker side of watches (see watches.module.ts): the evaluator, a durable consumer of the change feed, and the
 * delivery through the webhooks' dispatcher and the owner's stream.
 */
@Module({
  imports: [AccountRecordsModule, RanksModule, WebhooksWorkerModule],
  providers: [WatchDelivery, WatchEvaluator],
})
export class WatchesWorkerModule {}
