/**
 * # Operators' views
 *
 * What an operator of the service watches, beside the logs: `GET /metrics` (Prometheus text, behind METRICS_TOKEN;
 * src/common/metrics records each process's series and copies them to Redis, this area sums them and adds the
 * queue depths and the platform budget) and the queue dashboard (Bull Board under /admin/queues, for staff
 * sessions; see dashboard/). API process only: the worker records its metrics and publishes them, it serves none.
 */
import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { ChangeFeedFollower } from '../change-feed/change-feed-follower';
import { ChangeFeedModule } from '../change-feed/change-feed.module';
import { ServiceMetrics } from '../common/metrics/service-metrics';
import { PlatformModule } from '../platform/platform.module';
import { AuthModule } from '../auth/auth.module';
import { DashboardAccess } from './dashboard/dashboard-access.service';
import { DashboardController } from './dashboard/dashboard.controller';
import { MetricsController } from './metrics/metrics.controller';
import { OperatorGauges } from './metrics/operator-gauges';
import { OPERATED_QUEUES, OperatorQueues } from './operator-queues';

@Module({
  imports: [AuthModule, ChangeFeedModule, PlatformModule, BullModule.registerQueue(...OPERATED_QUEUES.map((name) => ({ name })))],
  controllers: [MetricsController, DashboardController],
  providers: [OperatorQueues, OperatorGauges, DashboardAccess],
  exports: [OperatorQueues, DashboardAccess],
})
export class OperatorsModule implements OnModuleInit {
  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly follower: ChangeFeedFollower,
  ) {}

  onModuleInit(): void {
    // The replicas of this process are as fresh as its change-feed follower (change_feed_lag_seconds).
    this.metrics.readLagFrom(() => this.follower.lagSeconds());
  }
}
