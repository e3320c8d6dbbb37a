import { createHash } from 'node:crypto';

/** The events an endpoint may ask for, each from a fact the service already publishes on a Redis channel. */
export const WEBHOOK_EVENT_TYPES = ['account.updated', 'activity.emitted', 'maintenance.changed', 'watch.fired'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One event as sent: the body of every delivery is exactly this, as JSON. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  data: unknown;
}

/**
 * The id of the event a fact makes, the same in every worker process that sees the fact: each of them records
 * it, and the unique (endpoint, event id) row keeps all but the first.
 */
export function eventId(type: WebhookEventType, key: string): string {
  return `evt_${createHash('sha256').update(`${type}:${key}`).digest('hex').slice(0, 32)}`;
}
