import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import {
  V1AccountCreateWebhookRequest,
  V1AccountListWebhookDeliveriesBody,
  V1AccountListWebhookDeliveriesRequest,
  V1AccountListWebhooksBody,
  V1AccountListWebhooksRequest,
  V1AccountUpdateWebhookRequest,
  V1AccountWebhookBody,
  V1AccountWebhookRequest,
  V1AccountWebhookSecretBody,
} from './dto/webhooks.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';

const OWNER = 'Only the account that owns the developer app: an app or endpoint of another account is a 404.';
const ERRORS = [400, 401, 404, 422, 500];

@ApiTags('webhooks')
@Controller('v1')
export class WebhooksController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @WireOperation({
    operationId: 'account.createWebhook',
    summary: 'Register a webhook endpoint for a developer app (an extension of this service)',
    description:
      `Events are POSTed to the URL as JSON (\`{id, type, createdAt, data}\`), signed with HMAC-SHA256 over \`<timestamp>.<body>\` ` +
      '(`Webhook-Signature: v1=<hex>`, `Webhook-Timestamp`, `Webhook-Event-Id`): `account.updated` when an update of a followed ' +
      'account completes, `activity.emitted` for each new activity event, `maintenance.changed` with the current broadcasts, `watch.fired` when one of the app owner’s own watches fires (account.createWatch). ' +
      'A delivery answered with anything but 2xx is retried with exponential backoff; the same event is never delivered twice ' +
      'to one endpoint after a success. An endpoint failing every attempt for a day is disabled (see `disabledReason`). ' +
      `The answer holds the signing secret, shown this once. At most \`WEBHOOK_MAX_PER_APP\` endpoints per app (10 by default; 409 past it). ${OWNER}`,
    auth: 'session',
    response: V1AccountWebhookSecretBody,
    errors: [...ERRORS, 409],
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: V1AccountCreateWebhookRequest): Promise<V1AccountWebhookSecretBody> {
    return this.endpoints.create(principal.accountId, body);
  }

  @WireOperation({
    operationId: 'account.listWebhooks',
    summary: "A developer app's webhook endpoints (an extension of this service)",
    description: `Every endpoint of the app, oldest first, with its status and, when disabled, why. ${OWNER}`,
    auth: 'session',
    response: V1AccountListWebhooksBody,
    errors: ERRORS,
  })
  async list(@CurrentPrincipal() principal: Principal, @Body() body: V1AccountListWebhooksRequest): Promise<V1AccountListWebhooksBody> {
    return { webhooks: await this.endpoints.list(principal.accountId, body.keyId) };
  }

  @WireOperation({
    operationId: 'account.updateWebhook',
    summary: 'Change a webhook endpoint (an extension of this service)',
    description:
      'Fields given replace the stored ones (`accountIds` as a whole list); `enabled: true` resumes a disabled endpoint ' +
      `(deliveries cancelled while it was disabled are not sent again). ${OWNER}`,
    auth: 'session',
    response: V1AccountWebhookBody,
    errors: ERRORS,
  })
  update(@CurrentPrincipal() principal: Principal, @Body() body: V1AccountUpdateWebhookRequest): Promise<V1AccountWebhookBody> {
    return this.endpoints.update(principal.accountId, body);
  }

  @WireOperation({
    operationId: 'account.deleteWebhook',
    summary: 'Delete a webhook endpoint and its delivery log (an extension of this service)',
    description: `Nothing more is sent to it, queued retries included. ${OWNER}`,
    auth: 'session',
    errors: ERRORS,
  })
  remove(@CurrentPrincipal() principal: Principal, @Body() body: V1AccountWebhookRequest): Promise<void> {
    return this.endpoints.remove(principal.accountId, body.webhookId);
  }

  @WireOperation({
    operationId: 'account.rotateWebhookSecret',
    summary: "Replace a webhook endpoint's signing secret (an extension of this service)",
    description: `The new secret, shown this once, signs every attempt from now on, retries of earlier events included. ${OWNER}`,
    auth: 'session',
    response: V1AccountWebhookSecretBody,
    errors: ERRORS,
  })
  rotate(@CurrentPrincipal() principal: Principal, @Body() body: V1AccountWebhookRequest): Promise<V1AccountWebhookSecretBody> {
    return this.endpoints.rotateSecret(principal.accountId, body.webhookId);
  }

  @WireOperation({
    operationId: 'account.listWebhookDeliveries',
    summary: "A webhook endpoint's delivery log (an extension of this service)",
    description: `One entry per event and endpoint, newest first: status, attempts, last error and response code. ${OWNER}`,
    auth: 'session',
    response: V1AccountListWebhookDeliveriesBody,
    errors: ERRORS,
  })
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountListWebhookDeliveriesRequest,
  ): Promise<V1AccountListWebhookDeliveriesBody> {
    return this.endpoints.listDeliveries(principal.accountId, body.webhookId, body.before, body.limit);
  }
}
