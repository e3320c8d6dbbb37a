import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from '../auth/entities/api-key.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { WebhookFollowEntity } from './entities/webhook-follow.entity';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhooksController } from './webhooks.controller';

/**
 * # Signed webhooks
 *
 * A developer app (an API key row) registers HTTPS endpoints for the events it can see, and the worker POSTs
 * each event to them, signed.
 *
 * - **Operations** (API process, this module; user session, owner of the app only, 404 for anyone else's):
 *   `account.createWebhook`, `account.listWebhooks`, `account.updateWebhook`, `account.deleteWebhook`,
 *   `account.rotateWebhookSecret`, `account.listWebhookDeliveries` (`webhooks.controller.ts`).
 * - **Events** (worker, `WebhooksWorkerModule`): `WebhookEventSource` listens to the Redis channels the streams
 *   consume — completed updates (`account.updated`, to endpoints following that account), new activity
 *   (`activity.emitted`), broadcast changes (`maintenance.changed`) — without changing their publishers.
 * - **Deliveries**: `WebhookDispatcher` records one `webhook_deliveries` row per (endpoint, event id), unique, and
 *   queues a BullMQ job per new row (`webhook-delivery`); `WebhookDeliveryProcessor` sends it
 *   (`webhook-sender.ts`) with retries and exponential backoff, logs each attempt on the row, and disables an
 *   endpoint whose attempts all failed for WEBHOOK_DISABLE_AFTER_MS, saying why.
 * - **Signature**: `Webhook-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, with `Webhook-Timestamp`
 *   and `Webhook-Event-Id` (`webhook-signature.ts`; the receiver's side is in docs/webhooks.md). The secret is
 *   stored as is, as signing needs it, and shown to the owner only at creation and rotation.
 * - **SSRF** (`common/net/public-address.ts`): https to public addresses only, checked at registration and again on every
 *   resolved address at connection time; loopback only with WEBHOOK_ALLOW_LOOPBACK (tests, local development).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookFollowEntity, WebhookDeliveryEntity, ApiKeyEntity])],
  controllers: [WebhooksController],
  providers: [WebhookEndpointsService],
})
export class WebhooksModule {}
