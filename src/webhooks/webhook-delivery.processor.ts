import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Job, Worker } from 'bullmq';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { redisConnectionOptions } from '../common/redis/redis-connection';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AttemptOutcome, sendDelivery } from './webhook-sender';
import { WEBHOOK_DELIVERY_QUEUE, WebhookDeliveryPayload } from './webhook-queue.constants';

interface DeliveryToSend {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  body: string;
  status: string;
  url: string;
  secret: string;
  enabled: boolean;
  keyActive: boolean;
}

/**
 * Sends webhook deliveries in the worker process, one BullMQ job per delivery row. A failed attempt is recorded
 * on the row (attempts, last error, response code) and thrown, so BullMQ retries it with exponential backoff
 * until WEBHOOK_ATTEMPTS; a success marks the row `succeeded`, and a row no longer `pending` is never sent again,
 * which is what keeps an event from reaching an endpoint twice after a success (a retry job, a re-queue at boot).
 * Every failure also starts or extends the endpoint's failure streak; once a streak is WEBHOOK_DISABLE_AFTER_MS
 * old the endpoint is disabled with the reason, and its pending deliveries are cancelled.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('WebhookDeliveryProcessor');
  private worker: Worker | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = new Worker(WEBHOOK_DELIVERY_QUEUE, (job) => this.process(job), {
      connection: { ...redisConnectionOptions(this.config.redisUrl), maxRetriesPerRequest: null },
      prefix: `${this.config.redisPrefix}:bull`,
      concurrency: this.config.webhooks.concurrency,
    });
    this.worker.on('error', (error) => this.logger.error({ msg: 'webhook queue worker error', error: error.message }));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  private async process(job: Job<WebhookDeliveryPayload>): Promise<void> {
    const deliveryId = job.data?.deliveryId;
    if (typeof deliveryId !== 'string' || !/^\d{1,19}$/.test(deliveryId)) {
      this.logger.error({ msg: 'dropping malformed webhook job', jobId: job.id });
      return;
    }
    const delivery = await this.load(deliveryId);
    // Deleted with its endpoint, or already settled: nothing to send.
    if (!delivery || delivery.status !== 'pending') return;
    if (!delivery.enabled) return this.cancel(deliveryId, 'the endpoint is disabled');
    if (!delivery.keyActive) return this.cancel(deliveryId, "the endpoint's developer app (API key) was revoked");
    const outcome = await sendDelivery(
      { url: delivery.url, secret: delivery.secret, eventId: delivery.eventId, body: delivery.body },
      { timeoutMs: this.config.webhooks.timeoutMs, allowLoopback: this.config.webhooks.allowLoopback },
    );
    if (outcome.ok) return this.succeeded(delivery, outcome);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = $2, response_code = $3, last_attempt_at = now(),
              status = CASE WHEN $4 THEN 'failed' ELSE status END
        WHERE delivery_id = $1 AND status = 'pending'`,
      [deliveryId, outcome.error, outcome.status, lastAttempt],
    );
    if (await this.failureStreak(delivery.webhookId, outcome)) return;
    if (!lastAttempt) throw new Error(outcome.error ?? 'delivery failed');
  }

  private async load(deliveryId: string): Promise<DeliveryToSend | null> {
    const [row] = await this.dataSource.query(
      `SELECT d.delivery_id AS "deliveryId", d.webhook_id AS "webhookId", d.event_id AS "eventId", d.body, d.status,
              e.url, e.signing_secret AS secret, e.enabled, k.revoked_at IS NULL AS "keyActive"
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.webhook_id = d.webhook_id
         JOIN api_keys k ON k.key_id = e.key_id
        WHERE d.delivery_id = $1`,
      [deliveryId],
    );
    return (row as DeliveryToSend | undefined) ?? null;
  }

  private async succeeded(delivery: DeliveryToSend, outcome: AttemptOutcome): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, response_code = $2, last_error = NULL,
              last_attempt_at = now(), delivered_at = now()
        WHERE delivery_id = $1`,
      [delivery.deliveryId, outcome.status],
    );
    await this.dataSource.query(`UPDATE webhook_endpoints SET failing_since = NULL WHERE webhook_id = $1 AND failing_since IS NOT NULL`, [
      delivery.webhookId,
    ]);
  }

  /**
   * Starts or extends the endpoint's failure streak and disables the endpoint once the streak is old enough;
   * true when this failure disabled it (then nothing more is tried). The database's clock decides, so worker
   * processes on other machines agree.
   */
  private async failureStreak(webhookId: string, outcome: AttemptOutcome): Promise<boolean> {
    await this.dataSource.query(`UPDATE webhook_endpoints SET failing_since = now() WHERE webhook_id = $1 AND failing_since IS NULL`, [
      webhookId,
    ]);
    // TypeORM answers an UPDATE … RETURNING with [rows, affected].
    const [[disabled]]: [{ since: Date }[], number] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_at = now(), updated_at = now(),
              disabled_reason = format('Every delivery attempt failed since %s (last: %s); disabled.',
                                       to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), $3::text)
        WHERE webhook_id = $1 AND enabled AND failing_since <= now() - make_interval(secs => $2::double precision / 1000)
       RETURNING failing_since AS since`,
      [webhookId, this.config.webhooks.disableAfterMs, outcome.error ?? 'no answer'],
    );
    if (!disabled) return false;
    this.logger.warn({ msg: 'webhook endpoint disabled after failing', webhookId, since: new Date(disabled.since).toISOString() });
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', last_error = coalesce(last_error, 'the endpoint was disabled')
        WHERE webhook_id = $1 AND status = 'pending'`,
      [webhookId],
    );
    return true;
  }

  private async cancel(deliveryId: string, why: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', last_error = coalesce(last_error, $2) WHERE delivery_id = $1 AND status = 'pending'`,
      [deliveryId, why],
    );
  }
}
