import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, In, IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from '../auth/entities/api-key.entity';
import { notFound, ProblemException, unprocessable } from '../common/problem/problem.exception';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import {
  DELIVERIES_DEFAULT_LIMIT,
  V1AccountCreateWebhookRequest,
  V1AccountListWebhookDeliveriesBody,
  V1AccountUpdateWebhookRequest,
  V1AccountWebhookBody,
  V1AccountWebhookSecretBody,
  Webhook,
} from './dto/webhooks.dto';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { WebhookFollowEntity } from './entities/webhook-follow.entity';
import { toWebhook, toWebhookDelivery } from './mappers/webhook.mapper';
import { urlProblem } from '../common/net/public-address';
import { newSigningSecret } from './webhook-signature';

const OWNER_DISABLED = 'Disabled by its owner.';

/**
 * The owner's operations on endpoints. Every one starts from the caller's account: an app or endpoint of another
 * account, or of a revoked key, is a 404, the same answer as one that does not exist.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(WebhookFollowEntity) private readonly follows: Repository<WebhookFollowEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(accountId: number, body: V1AccountCreateWebhookRequest): Promise<V1AccountWebhookSecretBody> {
    const accountIds = body.accountIds ?? [];
    // Whose app it is comes first: another account's app is a 404 whatever the rest of the request says.
    if (!(await this.keys.exists({ where: { keyId: body.keyId, accountId, revokedAt: IsNull() } })))
      throw notFound(`The caller has no developer app ${body.keyId}.`);
    this.checkSettings(body.url, body.events, accountIds);
    const secret = newSigningSecret();
    const webhookId = `whk_${randomBytes(8).toString('hex')}`;
    await this.dataSource.transaction(async (manager) => {
      // The key row is locked so that two creations at once cannot both pass the count below.
      const [key] = await manager.query(
        `SELECT key_id FROM api_keys WHERE key_id = $1 AND account_id = $2 AND revoked_at IS NULL FOR UPDATE`,
        [body.keyId, accountId],
      );
      if (!key) throw notFound(`The caller has no developer app ${body.keyId}.`);
      const count = await manager.count(WebhookEndpointEntity, { where: { keyId: body.keyId } });
      if (count >= this.config.webhooks.maxPerApp)
        throw new ProblemException(
          HttpStatus.CONFLICT,
          `App ${body.keyId} already has ${count} webhook endpoints, the most allowed; delete one first.`,
        );
      await manager.insert(WebhookEndpointEntity, {
        webhookId,
        keyId: body.keyId,
        accountId,
        url: body.url,
        description: body.description ?? '',
        events: body.events,
        signingSecret: secret,
      });
      await this.replaceFollows(manager, webhookId, accountIds);
    });
    return { webhook: await this.load(accountId, webhookId), secret };
  }

  async list(accountId: number, keyId: string): Promise<Webhook[]> {
    const key = await this.keys.findOne({ where: { keyId, accountId, revokedAt: IsNull() } });
    if (!key) throw notFound(`The caller has no developer app ${keyId}.`);
    const endpoints = await this.endpoints.find({ where: { keyId }, order: { createdAt: 'ASC', webhookId: 'ASC' } });
    const follows = endpoints.length ? await this.follows.find({ where: { webhookId: In(endpoints.map((e) => e.webhookId)) } }) : [];
    return endpoints.map((endpoint) =>
      toWebhook(
        endpoint,
        follows.filter((follow) => follow.webhookId === endpoint.webhookId).map((follow) => follow.accountId),
      ),
    );
  }

  async update(accountId: number, body: V1AccountUpdateWebhookRequest): Promise<V1AccountWebhookBody> {
    const endpoint = await this.owned(accountId, body.webhookId);
    const events = body.events ?? endpoint.events;
    const followed = body.accountIds ?? (await this.followedBy(endpoint.webhookId));
    // Dropping `account.updated` without naming accounts drops the accounts with it.
    const accountIds = events.includes('account.updated') || body.accountIds ? followed : [];
    this.checkSettings(body.url ?? endpoint.url, events, accountIds, body.url !== undefined);
    const changes: Partial<WebhookEndpointEntity> = { events };
    if (body.url !== undefined) changes.url = body.url;
    if (body.description !== undefined) changes.description = body.description;
    if (body.enabled === true) Object.assign(changes, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    if (body.enabled === false && endpoint.enabled)
      Object.assign(changes, { enabled: false, disabledReason: OWNER_DISABLED, disabledAt: new Date() });
    await this.dataSource.transaction(async (manager) => {
      await manager.update(WebhookEndpointEntity, { webhookId: endpoint.webhookId }, changes);
      await this.replaceFollows(manager, endpoint.webhookId, accountIds);
    });
    return { webhook: await this.load(accountId, endpoint.webhookId) };
  }

  async remove(accountId: number, webhookId: string): Promise<void> {
    const endpoint = await this.owned(accountId, webhookId);
    // Its follows and deliveries go with it (ON DELETE CASCADE); a queued delivery then finds nothing to send.
    await this.endpoints.delete({ webhookId: endpoint.webhookId });
  }

  async rotateSecret(accountId: number, webhookId: string): Promise<V1AccountWebhookSecretBody> {
    const endpoint = await this.owned(accountId, webhookId);
    const secret = newSigningSecret();
    await this.endpoints.update({ webhookId: endpoint.webhookId }, { signingSecret: secret });
    return { webhook: await this.load(accountId, webhookId), secret };
  }

  async listDeliveries(accountId: number, webhookId: string, before?: string, limit = DELIVERIES_DEFAULT_LIMIT) {
    const endpoint = await this.owned(accountId, webhookId);
    // Newest first over ix_webhook_deliveries_log (webhook_id, delivery_id).
    const query = this.deliveries
      .createQueryBuilder('d')
      .where('d.webhook_id = :webhookId', { webhookId: endpoint.webhookId })
      .orderBy('d.delivery_id', 'DESC')
      .limit(limit + 1);
    if (before !== undefined) query.andWhere('d.delivery_id < :before', { before });
    const rows = await query.getMany();
    const page = rows.slice(0, limit);
    const body: V1AccountListWebhookDeliveriesBody = { deliveries: page.map(toWebhookDelivery) };
    if (rows.length > limit) body.nextBefore = String(page[page.length - 1].deliveryId);
    return body;
  }

  /** The caller's endpoint, of an active key; anything else is a 404. */
  private async owned(accountId: number, webhookId: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints
      .createQueryBuilder('e')
      .innerJoin(ApiKeyEntity, 'k', 'k.key_id = e.key_id AND k.revoked_at IS NULL')
      .where('e.webhook_id = :webhookId AND e.account_id = :accountId', { webhookId, accountId })
      .getOne();
    if (!endpoint) throw notFound(`The caller has no webhook endpoint ${webhookId}.`);
    return endpoint;
  }

  private async load(accountId: number, webhookId: string): Promise<Webhook> {
    return toWebhook(await this.owned(accountId, webhookId), await this.followedBy(webhookId));
  }

  private async followedBy(webhookId: string): Promise<number[]> {
    return (await this.follows.find({ where: { webhookId } })).map((follow) => follow.accountId);
  }

  private async replaceFollows(manager: EntityManager, webhookId: string, accountIds: number[]): Promise<void> {
    await manager.delete(WebhookFollowEntity, { webhookId });
    if (accountIds.length)
      await manager.insert(
        WebhookFollowEntity,
        accountIds.map((accountId) => ({ accountId, webhookId })),
      );
  }

  /** The URL (when it is being set) against the SSRF rules, and `accountIds` going with `account.updated` and only with it. */
  private checkSettings(url: string, events: string[], accountIds: number[], urlChanged = true): void {
    const problem = urlChanged ? urlProblem(url, this.config.webhooks.allowLoopback) : null;
    if (problem) throw unprocessable(`The webhook URL ${problem}.`, [{ location: 'body.url', message: problem, value: url }]);
    const follows = events.includes('account.updated');
    if (follows && !accountIds.length)
      throw unprocessable('account.updated needs the accounts to follow.', [
        { location: 'body.accountIds', message: 'required with account.updated (1 to 100 account ids)' },
      ]);
    if (!follows && accountIds.length)
      throw unprocessable('accountIds are only for account.updated.', [
        { location: 'body.accountIds', message: 'only with account.updated', value: accountIds },
      ]);
  }
}
