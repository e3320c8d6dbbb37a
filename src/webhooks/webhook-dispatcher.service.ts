import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { WebhookEvent } from './webhook-events';
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_DELIVERY_QUEUE, WebhookDeliveryPayload, webhookDeliveryJobId } from './webhook-queue.constants';

/**
 * Who receives an event: the endpoints following an account, the endpoints of one account's own developer apps
 * (`watch.fired`: a user's watches go to their apps only), or every endpoint that asked for its type.
 */
export type Audience = { followersOf: number } | { ownedBy: number } | 'all';

/** Pending deliveries re-queued at boot, at most (older ones wait for the next boot). */
const RECOVERY_BATCH = 10_000;

/**
 * Turns an event into delivery rows and jobs. The rows come first, one statement per event for all its endpoints,
 * `ON CONFLICT DO NOTHING` on (endpoint, event id): a fact seen twice (two worker processes, a message repeated)
 * records one delivery, and only a newly recorded one gets a job. A process that dies between the rows and the
 * jobs leaves pending rows without jobs; the next boot queues them (job ids are the rows', so no doubles).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap {
  private readonly logger = new JsonLogger('WebhookDispatcher');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<WebhookDeliveryPayload>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT delivery_id AS id FROM webhook_deliveries WHERE status = 'pending' ORDER BY delivery_id LIMIT ${RECOVERY_BATCH}`,
    );
    if (rows.length) this.logger.info({ msg: 're-queueing pending webhook deliveries', count: rows.length });
    await this.enqueue(rows.map((row) => String(row.id)));
  }

  /** Records and queues the event for its audience; returns how many deliveries were new. */
  async dispatch(event: WebhookEvent, audience: Audience): Promise<number> {
    const body = JSON.stringify(event);
    // Enabled endpoints of active keys that asked for this type (and, for account events, follow the account).
    const [from, parameters] =
      audience === 'all'
        ? [`webhook_endpoints e`, [event.id, event.type, body]]
        : 'ownedBy' in audience
          ? [`webhook_endpoints e`, [event.id, event.type, body, audience.ownedBy]]
          : [
              `webhook_follows f JOIN webhook_endpoints e ON e.webhook_id = f.webhook_id AND f.account_id = $4`,
              [event.id, event.type, body, audience.followersOf],
            ];
    const owner = audience !== 'all' && 'ownedBy' in audience ? 'AND e.account_id = $4' : '';
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, body)
       SELECT e.webhook_id, $1, $2, $3 FROM ${from}
         JOIN api_keys k ON k.key_id = e.key_id AND k.revoked_at IS NULL
        WHERE e.enabled AND $2 = ANY(e.events) ${owner}
       ON CONFLICT (webhook_id, event_id) DO NOTHING
       RETURNING delivery_id AS id`,
      parameters,
    );
    await this.enqueue(rows.map((row) => String(row.id)));
    return rows.length;
  }

  private async enqueue(deliveryIds: string[]): Promise<void> {
    if (!deliveryIds.length) return;
    const { attempts, backoffMs } = this.config.webhooks;
    await this.queue.addBulk(
      deliveryIds.map((deliveryId) => ({
        name: WEBHOOK_DELIVERY_JOB,
        data: { deliveryId },
        opts: {
          jobId: webhookDeliveryJobId(deliveryId),
          attempts,
          backoff: { type: 'exponential', delay: backoffMs },
          // The row is the log; the job is only the schedule.
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }
}
