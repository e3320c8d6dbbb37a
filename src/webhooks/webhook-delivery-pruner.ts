import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/lifecycle/periodic-task';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

const PRUNE_EVERY_MS = 15 * 60_000;
/** Rows looked at per statement: a short transaction, whatever the backlog. */
const BATCH = 1000;

/**
 * The worker deletes delivery rows (the log account.listWebhookDeliveries shows) older than
 * WEBHOOK_DELIVERY_RETENTION_DAYS once they are settled (succeeded, failed or cancelled); a delivery still pending
 * stays until its attempts end. Delivery ids grow with time, so the oldest rows are the first of the primary key:
 * each batch reads the next BATCH ids from where the last stopped and the walk ends with the first batch that holds
 * no row old enough (ids are taken before their transactions commit, so a few may be out of order at the seam): no
 * index on `created_at`, and one batch read of what stays.
 */
@Injectable()
export class WebhookDeliveryPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('WebhookDeliveryPruner');
  private readonly task = new PeriodicTask(this.logger, 'webhook delivery pruning failed', PRUNE_EVERY_MS, () => this.prune());

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** Deletes the settled deliveries created more than the retention ago; how many went. */
  async prune(retentionMs = this.config.webhooks.deliveryRetentionDays * 86_400_000): Promise<number> {
    let after = '0';
    let deleted = 0;
    for (;;) {
      const [row]: { deleted: number; last: string | null; reached_young: boolean }[] = await this.dataSource.query(
        `WITH batch AS (
           SELECT delivery_id, status, created_at < now() - $2 * interval '1 millisecond' AS old
             FROM webhook_deliveries WHERE delivery_id > $1 ORDER BY delivery_id LIMIT $3),
         gone AS (
           DELETE FROM webhook_deliveries d USING batch b
            WHERE d.delivery_id = b.delivery_id AND b.old AND b.status <> 'pending'
           RETURNING d.delivery_id)
         SELECT (SELECT count(*)::int FROM gone) AS deleted,
                (SELECT max(delivery_id)::text FROM batch) AS last,
                (SELECT count(*) < $3 OR NOT bool_or(old) FROM batch) AS reached_young`,
        [after, retentionMs, BATCH],
      );
      deleted += row.deleted;
      if (row.reached_young || row.last === null) break;
      after = row.last;
    }
    if (deleted) this.logger.log({ msg: 'webhook deliveries pruned', deleted });
    return deleted;
  }
}
