import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsOptional } from 'class-validator';
import { INT32_MAX } from '../../common/wire/bounds';
import { DELIVERY_STATUSES } from '../entities/webhook-delivery.entity';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '../webhook-events';

export const KEY_ID = /^key_[0-9a-f]{12}$/;
export const WEBHOOK_ID = /^whk_[0-9a-f]{16}$/;
/** Accounts one endpoint may follow for `account.updated`. */
export const MAX_FOLLOWED_ACCOUNTS = 100;
export const URL_MAX_LENGTH = 2048;
export const DELIVERIES_DEFAULT_LIMIT = 20;

const URL_DESCRIPTION = 'Where events are POSTed: https, on a public address (private, link-local and loopback addresses are refused).';
const EVENTS_SCHEMA = {
  type: 'array' as const,
  items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
  example: ['account.updated'],
};

/** The checks of each settable field; `optional` for updates, where an absent field stays as it is. */
const urlField = (optional: boolean) =>
  (optional ? ApiPropertyOptional : ApiProperty)({
    maxLength: URL_MAX_LENGTH,
    example: 'https://example.com/hooks/badge-stats',
    description: URL_DESCRIPTION,
  });
const eventsField = (optional: boolean) =>
  applyDecorators(
    optional ? ApiPropertyOptional(EVENTS_SCHEMA) : ApiProperty(EVENTS_SCHEMA),
    // The document states uniqueItems; the schema pass does not check it, class-validator does.
    ...(optional ? [IsOptional()] : []),
    ArrayUnique(),
  );
const accountIdsField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX },
      maxItems: MAX_FOLLOWED_ACCOUNTS,
      uniqueItems: true,
      example: [1],
      description:
        'The 32-bit ids of the accounts whose `account.updated` events are sent: required with that event, and the complete list.',
    }),
    IsOptional(),
    ArrayUnique(),
  );
const descriptionField = () => ApiPropertyOptional({ maxLength: 200, example: 'Production receiver' });
const webhookIdField = () => ApiProperty({ maxLength: 20, pattern: WEBHOOK_ID.source, example: 'whk_0123456789abcdef' });
const keyIdField = (description: string) =>
  ApiProperty({ maxLength: 16, pattern: KEY_ID.source, example: 'key_0123456789ab', description });

export class V1AccountCreateWebhookRequest {
  @keyIdField('The developer app (API key id, as account.getSettings lists it) the endpoint belongs to.') keyId: string;
  @urlField(false) url: string;
  @eventsField(false) events: WebhookEventType[];
  @accountIdsField() accountIds?: number[];
  @descriptionField() description?: string;
}

export class V1AccountUpdateWebhookRequest {
  @webhookIdField() webhookId: string;
  @urlField(true) url?: string;
  @eventsField(true) events?: WebhookEventType[];
  @accountIdsField() accountIds?: number[];
  @descriptionField() description?: string;

  @ApiPropertyOptional({ description: 'false stops deliveries; true resumes them (and clears a failure streak).' })
  enabled?: boolean;
}

export class V1AccountWebhookRequest {
  @webhookIdField() webhookId: string;
}

export class V1AccountListWebhooksRequest {
  @keyIdField('The developer app whose endpoints are listed.') keyId: string;
}

/** A delivery id as text: at most 18 digits, so always within PostgreSQL's bigint. */
export const DELIVERY_ID = /^[1-9][0-9]{0,17}$/;

export class V1AccountListWebhookDeliveriesRequest extends V1AccountWebhookRequest {
  @ApiPropertyOptional({
    maxLength: 18,
    pattern: DELIVERY_ID.source,
    example: '42',
    description: 'Only deliveries older than this one: `nextBefore` of the previous page; omit for the newest.',
  })
  before?: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: DELIVERIES_DEFAULT_LIMIT, minimum: 1, maximum: 100 })
  limit?: number;
}

export class Webhook {
  @ApiProperty({ example: 'whk_0123456789abcdef' }) webhookId: string;
  @ApiProperty({ example: 'key_0123456789ab' }) keyId: string;
  @ApiProperty() url: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] } }) events: string[];
  @ApiProperty({ type: 'array', items: { type: 'integer', format: 'int32' } }) accountIds: number[];
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status: 'enabled' | 'disabled';
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Why deliveries stopped: disabled by its owner, or after every attempt failed for a day (the last error is named).',
  })
  disabledReason: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) disabledAt: string | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Start of the current run of failed attempts (null after a success); the endpoint is disabled once it is a day old.',
  })
  failingSince: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class V1AccountWebhookBody {
  @ApiProperty({ type: Webhook }) webhook: Webhook;
}

export class V1AccountWebhookSecretBody extends V1AccountWebhookBody {
  @ApiProperty({
    example: 'whsec_…',
    description: 'The signing secret, shown this once: keep it to verify the `Webhook-Signature` of deliveries (docs/webhooks.md).',
  })
  secret: string;
}

export class V1AccountListWebhooksBody {
  @ApiProperty({ type: [Webhook] }) webhooks: Webhook[];
}

export class WebhookDelivery {
  @ApiProperty({ example: '42' }) deliveryId: string;
  @ApiProperty({ example: 'evt_0123456789abcdef0123456789abcdef', description: 'Also sent as `Webhook-Event-Id`.' }) eventId: string;
  @ApiProperty({ enum: [...WEBHOOK_EVENT_TYPES] }) eventType: string;
  @ApiProperty({
    enum: [...DELIVERY_STATUSES],
    description:
      '`pending` (queued or between retries), `succeeded` (a 2xx answer), `failed` (every attempt failed), `cancelled` (the endpoint was disabled).',
  })
  status: string;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: 'string', nullable: true }) lastError: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the last answer; null when none came.' })
  responseCode: number | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastAttemptAt: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) deliveredAt: string | null;
}

export class V1AccountListWebhookDeliveriesBody {
  @ApiProperty({ type: [WebhookDelivery] }) deliveries: WebhookDelivery[];
  @ApiPropertyOptional({ description: 'Pass back as `before` for older deliveries; absent on the last page.' }) nextBefore?: string;
}
