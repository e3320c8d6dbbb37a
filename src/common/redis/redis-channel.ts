import Redis from 'ioredis';
import { Observable, Subject } from 'rxjs';
import { JsonLogger } from '../logging/json-logger';
import { watchRedis } from './redis-connection';

/**
 * A Redis pub/sub channel of JSON messages, fanned out in-process: one subscriber connection is opened with
 * the first listener and closed with the last, however many streams listen. The connection is named after the
 * channel (CLIENT LIST tells what it is for) and waits for Redis rather than failing, subscribing again after a
 * reconnect; listeners are not told of a drop (a replay tail reads all it missed at the next message, the change
 * feed's follower polls anyway).
 */
export class RedisChannel<T> {
  private readonly logger = new JsonLogger('RedisChannel');
  private readonly messages = new Subject<T>();
  private subscriber: Redis | null = null;
  private subscribed: Promise<void> = Promise.resolve();
  /** Resolves `subscribed`: once the subscription is made, or when it will not be (failed, or closed first). */
  private settle: () => void = () => undefined;
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
    // The last listener left before the subscription was made: nothing failed, nobody waits any longer.
    this.settle();
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }

  private open(): void {
    this.subscribed = new Promise((resolve) => (this.settle = resolve));
    // A subscribed connection takes no other commands, hence a connection of its own; the shared client fails
    // commands while Redis is away, a subscriber waits for it instead.
    const subscriber = this.redis.duplicate({
      enableOfflineQueue: true,
      lazyConnect: false,
      commandTimeout: undefined,
      connectionName: this.name,
    });
    this.subscriber = subscriber;
    const { host, port } = this.redis.options;
    watchRedis(subscriber, `subscriber ${this.name}`, `${host}:${port}`);
    subscriber.on('message', (_channel: string, raw: string) => {
      if (this.subscriber !== subscriber) return;
      try {
        this.messages.next(JSON.parse(raw) as T);
      } catch {
        this.logger.warn({ msg: 'ignoring a malformed message', channel: this.name });
      }
    });
    subscriber.on('ready', () => {
      subscriber.subscribe(this.name).then(
        () => this.settle(),
        (error: unknown) => {
          this.logger.error({ msg: 'subscription failed', channel: this.name, error: String(error) });
          this.settle();
        },
      );
    });
  }
}
