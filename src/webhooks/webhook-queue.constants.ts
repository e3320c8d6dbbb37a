/** The BullMQ queue of webhook deliveries: one job per delivery row, its id derived from the row's. */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const WEBHOOK_DELIVERY_JOB = 'webhook.deliver';

export interface WebhookDeliveryPayload {
  deliveryId: string;
}

/** BullMQ ignores an add whose id is waiting, delayed or running, so a delivery re-queued at boot is not doubled. */
export function webhookDeliveryJobId(deliveryId: string): string {
  return `webhook-delivery-${deliveryId}`;
}
