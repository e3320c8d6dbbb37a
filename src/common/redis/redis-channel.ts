import Redis from 'ioredis';
import { Observable, Subject } from 'rxjs';
import { JsonLogger } from '../logging/json-logger';
import { watchRedis } from './redis-connection';

/**
 * A Redis pub/sub channel of JSON messages, fanned out in-process: one subscriber connection is opened with
 * the first listener and closed with the last, however many streams listen.
 */
export class RedisChannel<T> {
  private readonly logger = new JsonLogger('RedisChannel');
  private readonly messages = new Subject<T>();
  private subscriber: Redis | null = null;
  private subscribed: Promise<void> = Promise.resolve();
  private listeners = 0;

  constructor(
    private readonly redis: Redis,
    readonly name: string,
  ) {}

  async publish(message: T): Promise<void> {
    await this.redis.publish(this.name, JSON.stringify(message));
  }

  listen(): Observable<T> {
    return new Observable<T>((observer) => {
      if (this.listeners++ === 0) this.open();
      const subscription = this.messages.subscribe(observer);
      return () => {
        subscription.unsubscribe();
        if (--this.listeners === 0) void this.close();
      };
    });
  }

  /**
   * Resolves once the subscription of the current listeners is active: a reader that takes a snapshot after
   * this misses no message published after its snapshot.
   */
  ready(): Promise<void> {
    return this.subscribed;
  }

  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private open(): void {
    // The shared client fails commands while Redis is away; a subscriber waits for it instead, and ioredis
    // subscribes again by itself after a reconnect.
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false, commandTimeout: undefined });
    const { host, port } = this.redis.options;
    watchRedis(subscriber, `subscriber ${this.name}`, `${host}:${port}`);
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, raw: string) => {
      try {
        this.messages.next(JSON.parse(raw) as T);
      } catch {
        this.logger.warn({ msg: 'ignoring a malformed message', channel: this.name });
      }
    });
    this.subscribed = subscriber.subscribe(this.name).then(
      () => undefined,
      (error: unknown) => {
        // The last listener left (and closed this subscriber) before the subscription was made: nothing failed.
        if (this.subscriber === subscriber) this.logger.error({ msg: 'subscription failed', channel: this.name, error: String(error) });
      },
    );
  }
}
