import { WebhookDeliveryEntity } from '../entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';
import { Webhook, WebhookDelivery } from '../dto/webhooks.dto';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** An endpoint as its owner sees it: never its secret. */
export function toWebhook(endpoint: WebhookEndpointEntity, accountIds: number[]): Webhook {
  return {
    webhookId: endpoint.webhookId,
    keyId: endpoint.keyId,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    accountIds: [...accountIds].sort((a, b) => a - b),
    status: endpoint.enabled ? 'enabled' : 'disabled',
    disabledReason: endpoint.disabledReason,
    disabledAt: iso(endpoint.disabledAt),
    failingSince: iso(endpoint.failingSince),
    createdAt: new Date(endpoint.createdAt).toISOString(),
    updatedAt: new Date(endpoint.updatedAt).toISOString(),
  };
}

export function toWebhookDelivery(delivery: WebhookDeliveryEntity): WebhookDelivery {
  return {
    deliveryId: String(delivery.deliveryId),
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    lastError: delivery.lastError,
    responseCode: delivery.responseCode,
    createdAt: new Date(delivery.createdAt).toISOString(),
    lastAttemptAt: iso(delivery.lastAttemptAt),
    deliveredAt: iso(delivery.deliveredAt),
  };
}
