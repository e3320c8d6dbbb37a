import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID, createHash } from 'node:crypto';
import { AccountEventMessage } from '../accounts/events/account-events.service';
import { UpdateProgressService } from '../account-records/progress/update-progress.service';
import { ActivityFeedService } from '../activity/activity-feed.service';
import { ActivityRecorder } from '../activity/activity-recorder';
import { JsonLogger } from '../common/logging/json-logger';
import { FactConsumer } from '../common/redis/fact-consumer';
import { RedisChannel } from '../common/redis/redis-channel';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MaintenanceService } from '../site/maintenance.service';
import { Audience, WebhookDispatcher } from './webhook-dispatcher.service';
import { eventId, WebhookEvent } from './webhook-events';

/** How long one worker's claim on a maintenance state keeps the other workers from announcing it too. */
const MAINTENANCE_CLAIM_MS = 10_000;

/**
 * Listens, in the worker process, to the channels the streams already consume and turns their facts into
 * events: a completed update on `<prefix>:events:account` → `account.updated`, each id announced on
 * `<prefix>:events:activity` → `activity.emitted`, a change on `<prefix>:events:site` → `maintenance.changed`.
 * The publishers are not touched. Event ids are derived from the fact (the run id, the activity id), so every
 * worker process that hears it makes the same event and the dispatcher records it once. A site change carries
 * nothing to derive an id from, so the first worker to claim the resulting state (a short Redis lease on its
 * hash) announces it. Pub/sub keeps nothing for a process that is not listening: facts published while no worker
 * runs make no events.
 */
@Injectable()
export class WebhookEventSource implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('WebhookEventSource');
  private readonly facts = new FactConsumer(this.logger, 'could not turn a fact into webhook deliveries');
  private readonly accountChannel: RedisChannel<AccountEventMessage>;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly activity: ActivityRecorder,
    private readonly feed: ActivityFeedService,
    private readonly maintenance: MaintenanceService,
    progress: UpdateProgressService,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.accountChannel = new RedisChannel(redis, progress.channel);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.facts.consume('account', this.accountChannel.listen(), (message) => this.onAccount(message));
    this.facts.consume('activity', this.activity.channel.listen(), (message) => this.onActivity(message.ids));
    this.facts.consume('site', this.maintenance.changes.listen(), () => this.onMaintenance());
    await Promise.all([this.accountChannel.ready(), this.activity.channel.ready(), this.maintenance.changes.ready()]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.facts.stop();
    await this.accountChannel.close();
  }

  private async onAccount(message: AccountEventMessage): Promise<void> {
    if (message.type !== 'progress' || message.status !== 'completed') return;
    const { accountId, runId, finishedAt } = message.progress;
    await this.send(
      event('account.updated', eventId('account.updated', runId), {
        accountId,
        runId,
        status: 'completed',
        finishedAt: finishedAt ?? null,
      }),
      { followersOf: accountId },
    );
  }

  private async onActivity(ids: string[]): Promise<void> {
    // One id at a time: the feed's reader answers without the row ids, so a batch could not be told apart.
    for (const id of ids.slice(0, 1000)) {
      const [activity] = await this.feed.byIds([id]);
      if (activity) await this.send(event('activity.emitted', eventId('activity.emitted', id), activity), 'all');
    }
  }

  private async onMaintenance(): Promise<void> {
    const items = (await this.maintenance.current()).map(({ $schema: _schema, ...rest }) => rest);
    const state = createHash('sha256').update(JSON.stringify(items)).digest('hex');
    const claimed = await this.redis.set(redisKey(this.config, 'webhooks', 'maintenance', state), '1', 'PX', MAINTENANCE_CLAIM_MS, 'NX');
    if (claimed) await this.send(event('maintenance.changed', `evt_${randomUUID().replace(/-/g, '')}`, { items }), 'all');
  }

  private async send(webhookEvent: WebhookEvent, audience: Audience): Promise<void> {
    const created = await this.dispatcher.dispatch(webhookEvent, audience);
    if (created) this.logger.debug({ msg: 'webhook deliveries recorded', eventId: webhookEvent.id, type: webhookEvent.type, created });
  }
}

function event(type: WebhookEvent['type'], id: string, data: unknown): WebhookEvent {
  return { id, type, createdAt: new Date().toISOString(), data };
}
