import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { WatchedSubscription } from '../../common/redis/watched-subscription';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiKeyCache } from '../key-cache/api-key-cache';
import { CredentialStreams, RevokedCredential } from './credential-streams';

/** How long a revocation waits for every subscribed process to confirm it has acted on it (see api-key-cache.ts). */
export const ACK_TIMEOUT_MS = 2_000;

interface Waiter {
  acks: number;
  expected: number | null;
  done: () => void;
}

/**
 * # Credential revocations
 *
 * The one signal that a credential stopped working, heard by every process: an API key revoked
 * (account.deleteDeveloperApp, CLI `api-key revoke`) or a session ended (account.logout, account.deleteSession, CLI
 * `session revoke`, a reused refresh token). `announce` is its only entry point, called after the revocation is
 * committed; it goes out on `<prefix>:credentials:revoked`, and each process acts on it, then answers on
 * `<prefix>:credentials:revoked-ack`:
 * - a key leaves the process's verified-key cache (`cache`, see key-cache/api-key-cache.ts for why that is exact);
 * - every event stream opened with the credential, or with a stream ticket it minted, is ended (CredentialStreams).
 * The revoker waits for the acknowledgements, so once a revocation has returned no process serves the key from its
 * cache or keeps such a stream open. A process whose subscription dropped misses what was published meanwhile: its
 * key cache stays off until subscribed again, and then the credentials of its open streams are checked in PostgreSQL.
 */
@Injectable()
export class CredentialRevocations implements OnModuleInit, OnApplicationShutdown {
  readonly cache = new ApiKeyCache();
  private readonly logger = new JsonLogger('CredentialRevocations');
  private readonly revokedChannel: string;
  private readonly ackChannel: string;
  private readonly waiters = new Map<string, Waiter>();
  private subscription: WatchedSubscription | null = null;
  /** Resolves once the acknowledgements can be heard (a CLI revokes right after it starts). */
  private listening!: () => void;
  private readonly heard = new Promise<void>((resolve) => (this.listening = resolve));

  /** Whether the subscription dropped since it was last made (revocations may have been missed). */
  private missed = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly streams: CredentialStreams,
  ) {
    this.revokedChannel = redisKey(config, 'credentials', 'revoked');
    this.ackChannel = redisKey(config, 'credentials', 'revoked-ack');
  }

  onModuleInit(): void {
    this.subscription = new WatchedSubscription(this.redis, [this.revokedChannel, this.ackChannel], 'subscriber credential revocations', {
      message: (raw, channel) => this.onMessage(channel, raw),
      subscribed: () => {
        this.cache.setEnabled(true);
        this.listening();
        if (this.missed) void this.streams.endRevokedSince();
        this.missed = false;
      },
      // Messages sent while the connection was down are lost: the cache stays off until subscribed again, and the
      // open streams' credentials are checked then.
      closed: () => {
        this.cache.setEnabled(false);
        this.missed = true;
      },
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
   * Tells every process that `credential` is revoked (its row already committed) and resolves once each subscribed one
   * has acted on it, or after ACK_TIMEOUT_MS (logged). This process acts first, whatever Redis does.
   */
  async announce(credential: RevokedCredential): Promise<void> {
    this.act(credential);
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
      waiter.expected = await this.redis.publish(this.revokedChannel, JSON.stringify({ credential, id }));
      if (waiter.acks >= waiter.expected) return;
      const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ACK_TIMEOUT_MS)));
      if (await Promise.race([confirmed.then(() => false), timedOut])) {
        this.logger.warn({
          msg: 'not every process confirmed a credential revocation in time',
          credential: credential.kind === 'api-key' ? credential.keyId : credential.sessionId,
          expected: waiter.expected,
          acks: waiter.acks,
        });
      }
    } finally {
      clearTimeout(timer);
      this.waiters.delete(id);
    }
  }

  /** What a process does when it hears of a revocation (the revoker's own first). */
  private act(credential: RevokedCredential): void {
    if (credential.kind === 'api-key') this.cache.evict(credential.keyId);
    this.streams.end(credential);
  }

  private onMessage(channel: string, raw: string): void {
    let message: { credential?: RevokedCredential; id?: unknown };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id !== 'string') return;
    const credential = message.credential;
    if (channel === this.revokedChannel && isCredential(credential)) {
      this.act(credential);
      // Acknowledged only after acting on it; a failed ack leaves the revoker waiting until its timeout.
      this.redis.publish(this.ackChannel, JSON.stringify({ id: message.id })).catch(() => undefined);
    } else if (channel === this.ackChannel) {
      const waiter = this.waiters.get(message.id);
      if (!waiter) return;
      waiter.acks++;
      if (waiter.expected !== null && waiter.acks >= waiter.expected) waiter.done();
    }
  }
}

function isCredential(value: unknown): value is RevokedCredential {
  if (!value || typeof value !== 'object') return false;
  const credential = value as Record<string, unknown>;
  return (
    (credential.kind === 'api-key' && typeof credential.keyId === 'string') ||
    (credential.kind === 'session' && typeof credential.sessionId === 'string')
  );
}
