import Redis from 'ioredis';
import { watchRedis } from './redis-connection';

/** What a watched subscription tells its reader. */
export interface SubscriptionHandlers {
  /** A message, as published, and the channel it came on. */
  message(raw: string, channel: string): void;
  /** The subscription is made (again): every message published from now on is heard. */
  subscribed(): void;
  /** The connection dropped: messages published until the next `subscribed` are lost. */
  closed(): void;
  /** SUBSCRIBE itself failed (the connection stays up; nothing is heard). */
  failed(error: unknown): void;
}

/**
 * A subscriber connection of its own for a reader that keeps state in step with a channel (RedisChannel fans messages
 * out but cannot tell a reader that it may have missed some): it tells each time the subscription is made, after a
 * connect or a reconnect, and each time the connection drops, so that the reader can stop trusting what it holds
 * and read the store again. It waits for Redis rather than failing; nothing is called after `close`.
 */
export class WatchedSubscription {
  private readonly connection: Redis;
  private closing = false;

  /** `channels`: one or more; the connection is named after the first, so that CLIENT LIST tells what it is for. */
  constructor(redis: Redis, channels: string | string[], role: string, handlers: SubscriptionHandlers) {
    const names = typeof channels === 'string' ? [channels] : channels;
    // A subscribed connection takes no other commands, hence a connection of its own.
    this.connection = redis.duplicate({
      enableOfflineQueue: true,
      lazyConnect: false,
      commandTimeout: undefined,
      connectionName: names[0],
    });
    const { host, port } = redis.options;
    watchRedis(this.connection, role, `${host}:${port}`);
    this.connection.on('message', (channel: string, raw: string) => {
      if (!this.closing) handlers.message(raw, channel);
    });
    this.connection.on('close', () => {
      if (!this.closing) handlers.closed();
    });
    this.connection.on('ready', () => {
      this.connection.subscribe(...names).then(
        () => !this.closing && handlers.subscribed(),
        (error: unknown) => !this.closing && handlers.failed(error),
      );
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
