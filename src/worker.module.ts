import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { QueueModule } from './common/queue/queue.module';
import { CoreModule } from './core.module';
import { MetricsModule } from './common/metrics/metrics.module';
import { ChangeFeedPruner } from './change-feed/change-feed-pruner';
import { RefreshWorkerModule } from './refresh/refresh-worker.module';
import { PricingWorkerModule } from './pricing/pricing-worker.module';
import { WebhooksWorkerModule } from './webhooks/webhooks-worker.module';
import { WatchesWorkerModule } from './watches/watches-worker.module';
import { ViewRollupModule } from './accounts/views/view-rollup.module';
import { AnalyticsTrendsModule } from './analytics/trends/analytics-trends.module';

/** The job process: BullMQ processors over the same core and area services as the API, without HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config),
        MetricsModule.forRoot('worker'),
        QueueModule,
        RefreshWorkerModule,
        PricingWorkerModule,
        WebhooksWorkerModule,
        WatchesWorkerModule,
        ViewRollupModule,
        AnalyticsTrendsModule,
      ],
      // The worker prunes the change feed (one process kind does it; several workers pruning at once is harmless).
      providers: [ChangeFeedPruner],
    };
  }
}
