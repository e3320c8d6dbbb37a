import { createHmac, randomBytes } from 'node:crypto';

/** The headers of every delivery. The receiver recomputes the signature and compares (docs/webhooks.md). */
export const WEBHOOK_HEADERS = {
  eventId: 'Webhook-Event-Id',
  timestamp: 'Webhook-Timestamp',
  signature: 'Webhook-Signature',
} as const;

/** Secrets as shown to their owner: the prefix says what it is when it turns up in a log or a repository. */
export const SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, keyed with the whole secret string (prefix included, so that
 * the receiver uses what it was shown, unchanged). The timestamp (Unix seconds) is signed so that a captured
 * delivery cannot be replayed later: receivers refuse one whose timestamp is more than a few minutes off.
 */
export function signDelivery(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
