import { Observable, Subject, Subscription } from 'rxjs';
import { JsonLogger } from '../logging/json-logger';
import { ReplayEntry, ReplayLog } from './replay-log';

/** What wakes a tail: the pub/sub channel the publishers announce on (filtered to the log's key if need be). */
export interface ReplayWake {
  listen(): Observable<unknown>;
  /** Resolves once the subscription behind `listen` is active. */
  ready(): Promise<void>;
}

/** Entries read per XRANGE while catching up. */
const PAGE = 500;

/**
 * The live end of one replay log in this process: one reader for all the streams that follow the log here, so
 * an event costs one XRANGE per process, not one per connection. Each announcement on the channel wakes it; it
 * reads every entry after the last one it read (announcements that arrive while it reads are folded into one
 * more read), so a lost or doubled announcement loses or doubles nothing. Started by the first listener, stopped
 * with the last. A per-key log is kept alive (its expiry pushed back) while the tail runs.
 */
export class ReplayTail {
  private readonly logger = new JsonLogger('ReplayTail');
  private readonly entries = new Subject<ReplayEntry>();
  private listeners = 0;
  private cursor: string | null = null;
  private started: Promise<void> | null = null;
  private wakeSubscription: Subscription | null = null;
  private keepAlive: NodeJS.Timeout | null = null;
  private reading = false;
  private again = false;

  constructor(
    readonly log: ReplayLog,
    private readonly wake: ReplayWake,
    private readonly onIdle: () => void = () => undefined,
  ) {}

  /** The entries appended from now on, each once, oldest first. */
  listen(): Observable<ReplayEntry> {
    return new Observable<ReplayEntry>((observer) => {
      if (this.listeners++ === 0) this.start();
      const subscription = this.entries.subscribe(observer);
      return () => {
        subscription.unsubscribe();
        if (--this.listeners === 0) this.stop();
      };
    });
  }

  /**
   * Resolves once the tail reads every entry appended from now on: a stream that reads the log after this
   * misses nothing between what it read and what the tail sends.
   */
  ready(): Promise<void> {
    if (!this.started) this.started = this.begin();
    return this.started;
  }

  private start(): void {
    this.wakeSubscription = this.wake.listen().subscribe(() => void this.read());
    const ttl = this.log.options.ttlSeconds;
    if (ttl) {
      // Pushes the expiry back while someone follows the log, and reads: a wake lost while Redis was away is caught up.
      this.keepAlive = setInterval(
        () =>
          void this.log.position().then(
            () => this.read(),
            () => undefined,
          ),
        (ttl * 1000) / 3,
      );
      this.keepAlive.unref();
    }
  }

  private async begin(): Promise<void> {
    try {
      await this.wake.ready();
      this.cursor = await this.log.position();
    } catch (error) {
      this.started = null;
      throw error;
    }
    await this.read();
  }

  private stop(): void {
    this.wakeSubscription?.unsubscribe();
    this.wakeSubscription = null;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
    this.started = null;
    this.cursor = null;
    this.onIdle();
  }

  private async read(): Promise<void> {
    if (this.cursor === null) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        for (;;) {
          const cursor: string | null = this.cursor;
          if (cursor === null) return;
          const batch = await this.log.after(cursor, PAGE);
          if (this.cursor !== cursor) return; // stopped (and maybe restarted) meanwhile
          for (const entry of batch) {
            this.cursor = entry.id;
            this.entries.next(entry);
          }
          if (batch.length < PAGE) break;
        }
      } while (this.again);
    } catch (error) {
      // The next announcement (or keep-alive) reads again from the same cursor: nothing is skipped.
      this.logger.warn({ msg: 'replay log read failed', key: this.log.key, error: String(error) });
    } finally {
      this.reading = false;
      // A wake that came while a stopped tail's read was ending belongs to the restarted tail: read for it.
      if (this.again && this.cursor !== null) void this.read();
    }
  }
}

/** Tails by key, each dropped when its last listener leaves (per-account logs come and go with their streams). */
export class ReplayTails<K> {
  private readonly tails = new Map<K, ReplayTail>();

  constructor(private readonly make: (key: K, onIdle: () => void) => ReplayTail) {}

  get(key: K): ReplayTail {
    let tail = this.tails.get(key);
    if (!tail) {
      const made = this.make(key, () => {
        if (this.tails.get(key) === made) this.tails.delete(key);
      });
      this.tails.set(key, made);
      tail = made;
    }
    return tail;
  }
}
