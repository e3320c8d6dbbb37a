import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { WatchedSubscription } from '../../common/redis/watched-subscription';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiKeyCache } from './api-key-cache';

/** How long a revocation waits for every subscribed process to confirm its eviction (see api-key-cache.ts). */
export const ACK_TIMEOUT_MS = 2_000;

interface Waiter {
  acks: number;
  expected: number | null;
  done: () => void;
}

/**
 * The cache of this process and the broadcast that keeps every process's cache honest: revocations go out on
 * `<prefix>:api-keys:revoked`, each process evicts and answers on `<prefix>:api-keys:revoked-ack`.
 */
@Injectable()
export class KeyRevocations implements OnModuleInit, OnApplicationShutdown {
  readonly cache = new ApiKeyCache();
  private readonly logger = new JsonLogger('KeyRevocations');
  private readonly revokedChannel: string;
  private readonly ackChannel: string;
  private readonly waiters = new Map<string, Waiter>();
  private subscription: WatchedSubscription | null = null;
  /** Resolves once the acknowledgements can be heard (a CLI revokes right after it starts). */
  private listening!: () => void;
  private readonly heard = new Promise<void>((resolve) => (this.listening = resolve));

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.revokedChannel = redisKey(config, 'api-keys', 'revoked');
    this.ackChannel = redisKey(config, 'api-keys', 'revoked-ack');
  }

  onModuleInit(): void {
    this.subscription = new WatchedSubscription(this.redis, [this.revokedChannel, this.ackChannel], 'subscriber api-key revocations', {
      message: (raw, channel) => this.onMessage(channel, raw),
      subscribed: () => {
        this.cache.setEnabled(true);
        this.listening();
      },
      // Messages sent while the connection was down are lost: the cache stays off until subscribed again.
      closed: () => this.cache.setEnabled(false),
      failed: (error) => this.logger.error({ msg: 'could not subscribe to key revocations', error: String(error) }),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    this.cache.setEnabled(false);
    await subscription?.close();
  }

  /**
   * Tells every process that `keyId` is revoked (its row already committed) and resolves once each subscribed one
   * has evicted it, or after ACK_TIMEOUT_MS (logged). This process evicts it first, whatever Redis does.
   */
  async announce(keyId: string): Promise<void> {
    this.cache.evict(keyId);
    const id = randomBytes(8).toString('hex');
    let done!: () => void;
    const confirmed = new Promise<void>((resolve) => (done = resolve));
    const waiter: Waiter = { acks: 0, expected: null, done };
    this.waiters.set(id, waiter);
    let timer: NodeJS.Timeout | undefined;
    try {
      const deaf = new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_TIMEOUT_MS)));
      await Promise.race([this.heard, deaf]);
      clearTimeout(timer);
      waiter.expected = await this.redis.publish(this.revokedChannel, JSON.stringify({ keyId, id }));
      if (waiter.acks >= waiter.expected) return;
      const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ACK_TIMEOUT_MS)));
      if (await Promise.race([confirmed.then(() => false), timedOut])) {
        this.logger.warn({
          msg: 'not every process confirmed a key revocation in time',
          keyId,
          expected: waiter.expected,
          acks: waiter.acks,
        });
      }
    } finally {
      clearTimeout(timer);
      this.waiters.delete(id);
    }
  }

  private onMessage(channel: string, raw: string): void {
    let message: { keyId?: unknown; id?: unknown };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id !== 'string') return;
    if (channel === this.revokedChannel && typeof message.keyId === 'string') {
      this.cache.evict(message.keyId);
      // Acknowledged only after the eviction; a failed ack leaves the revoker waiting until its timeout.
      this.redis.publish(this.ackChannel, JSON.stringify({ id: message.id })).catch(() => undefined);
    } else if (channel === this.ackChannel) {
      const waiter = this.waiters.get(message.id);
      if (!waiter) return;
      waiter.acks++;
      if (waiter.expected !== null && waiter.acks >= waiter.expected) waiter.done();
    }
  }
}
