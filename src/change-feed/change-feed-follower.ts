import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { FeedEntry, Nudge } from './change-entry';
import { FeedCursor } from './feed-cursor';
import { FeedPollLoop } from './feed-poll-loop';
import { FeedReader } from './feed-reader';

export { POLL_MS } from './feed-poll-loop';
/** A failed load (PostgreSQL away) is tried again this much later. */
const RETRY_LOAD_MS = 10_000;

/**
 * State kept in a process's memory from PostgreSQL and in step through the feed (ChangeFeedFollower.attach). The
 * follower calls one method at a time: `load`, then `apply` for the entries committed while it loaded, then
 * `setLive(true)`; from then on `apply` for each batch read. A reload (`apply` answered 'reload', the feed no longer
 * reaching back, a failed load) begins with `setLive(false)`.
 */
export interface Projection {
  /** For logs and tests. */
  readonly name: string;
  /** Reads the whole state from PostgreSQL (nothing is answered from it until `setLive(true)`). */
  load(): Promise<void>;
  /**
   * Applies entries, in feed order. An entry may come again after a failure, or ahead of an older one (applied early,
   * FeedCursor), so an apply re-reads what the entry names rather than replaying a difference. Throws to have the
   * batch read and applied again at the next poll; 'reload' to be loaded again in full.
   */
  apply(entries: readonly FeedEntry[]): Promise<void | 'reload'>;
  /** True: loaded and caught up, answer from memory. False: a reload begins; drop what is held. */
  setLive(live: boolean): void;
}

/** `buffer`: the entries read while it loads (null: not loading); `again`: reload once the load under way ends. */
/** How often whenWarm looks again: loads take milliseconds to seconds. */
const WARM_POLL_MS = 50;

interface Attached {
  projection: Projection;
  live: boolean;
  /** Live at least once: loaded since the process started. */
  everLive: boolean;
  buffer: FeedEntry[] | null;
  loading: Promise<void> | null;
  again: boolean;
  loads: number;
}

/**
 * The readers' side of the feed (see change-feed.module.ts): one per process, started by the first projection
 * attached (only HTTP processes attach any). Its position survives outages of Redis (the poll finds what nudges lost)
 * and PostgreSQL (the read is tried again from it); only a feed pruned past it reloads every projection in full.
 */
@Injectable()
export class ChangeFeedFollower implements OnApplicationShutdown {
  private readonly logger = new JsonLogger('ChangeFeed');
  private readonly attached = new Map<string, Attached>();
  private readonly loop: FeedPollLoop;
  private readonly reader: FeedReader;
  private cursor: Promise<FeedCursor> | null = null;
  private failing = false;
  /** Nudges heard, and how many of them the last completed poll began after. */
  private heard = 0;
  private covered = 0;
  /** Accounts named by a nudge → that nudge's number: pending until a poll begun after it completes. */
  private readonly pendingAccounts = new Map<number, number>();
  private waiters: { after: number; resolve: () => void }[] = [];
  /** When the last poll that read every entry visible to it began (ms). */
  private syncedAt = 0;

  constructor(@InjectDataSource() dataSource: DataSource, @Inject(REDIS) redis: Redis, @Inject(APP_CONFIG) config: AppConfig) {
    this.loop = new FeedPollLoop(
      redis,
      config,
      () => this.round(),
      (nudge) => this.nudged(nudge),
    );
    this.reader = new FeedReader(dataSource);
  }

  private get running(): boolean {
    return this.loop.running;
  }

  /** Loads the projection and keeps it in step from then on; starts following with the first one. */
  attach(projection: Projection): void {
    const attached: Attached = { projection, live: false, everLive: false, buffer: null, loading: null, again: false, loads: 0 };
    this.attached.set(projection.name, attached);
    this.start();
    this.reload(attached);
  }

  /** Follows the feed (again) from the position held: what committed while stopped is applied at the first poll. */
  start(): void {
    this.loop.start();
  }

  /** Stops reading (shutdown; tests make the projections miss changes so); the position is kept. */
  async stop(): Promise<void> {
    await this.loop.stop();
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  /** A nudge, heard on the channel or sent by this process's own writer (ChangeFeed.nudge): poll now. */
  nudged(nudge: Partial<Nudge> | null): void {
    if (!this.running) return;
    this.heard++;
    for (const id of Array.isArray(nudge?.accountIds) ? nudge.accountIds : []) this.pendingAccounts.set(id, this.heard);
    void this.loop.poll();
  }

  /** Resolves once every change nudged before this call is applied (or the poll that would apply it failed). */
  settled(): Promise<void> {
    if (this.covered >= this.heard || !this.running) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ after: this.heard, resolve }));
  }

  /** Whether a change of the account was nudged and is not applied yet: a reader answers it from the stores instead. */
  pending(accountId: number): boolean {
    return (this.pendingAccounts.get(accountId) ?? 0) > this.covered;
  }

  /** Whether a poll begun within the last `ms` applied every entry it could see (every change committed before it). */
  syncedWithin(ms: number): boolean {
    return this.running && Date.now() - this.syncedAt <= ms;
  }

  /**
   * The projections attached that have not yet been live once: what the process is still loading before it serves
   * from memory (/health answers 503 naming them). A later reload is not counted: reads fall back to the stores then.
   */
  warming(): string[] {
    return [...this.attached.values()].filter((attached) => !attached.everLive).map((attached) => attached.projection.name);
  }

  /** Resolves once every projection attached so far has been live once (at once when none is warming). */
  async whenWarm(): Promise<void> {
    while (this.warming().length) await new Promise((resolve) => setTimeout(resolve, WARM_POLL_MS));
  }

  /** Seconds since a poll last applied every entry it could see; null when not following (or not caught up yet). */
  lagSeconds(): number | null {
    return this.running && this.syncedAt > 0 ? (Date.now() - this.syncedAt) / 1000 : null;
  }

  /** A projection's state, for tests and logs. */
  stateOf(name: string): { live: boolean; loads: number } | undefined {
    const attached = this.attached.get(name);
    return attached && { live: attached.live, loads: attached.loads };
  }

  /** One poll (FeedPollLoop runs one at a time); true when it did not read every entry there was. */
  private async round(): Promise<boolean> {
    const [nudges, began] = [this.heard, Date.now()];
    let more = false;
    try {
      const cursor = await this.currentCursor();
      const read = await this.reader.read(cursor.position);
      const step = cursor.step(read);
      if (step.gone) {
        this.logger.warn({ msg: 'the change feed was pruned past this process: its projections reload', position: cursor.position });
        this.cursor = Promise.resolve(FeedCursor.at(read.horizon));
        for (const attached of this.attached.values()) this.reload(attached);
      } else {
        for (const attached of step.apply.length ? this.attached.values() : []) {
          if (attached.buffer) attached.buffer.push(...step.apply);
          else if (attached.live && (await attached.projection.apply(step.apply)) === 'reload') this.reload(attached);
        }
        this.cursor = Promise.resolve(step.next);
        more = !step.complete;
        if (step.complete) {
          this.syncedAt = began;
          this.covered = Math.max(this.covered, nudges);
          for (const [id, nudge] of this.pendingAccounts) if (nudge <= this.covered) this.pendingAccounts.delete(id);
        }
      }
      if (this.failing) this.logger.log({ msg: 'the change feed is read again' });
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.logger.warn({ msg: 'could not read the change feed; trying again', error: String(error) });
      this.failing = true;
    }
    // Readers waiting for nudges heard before the poll began: it has ended (applied, or failed: answer anyway).
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.after <= nudges) waiter.resolve();
      else this.waiters.push(waiter);
    }
    return more;
  }

  /** The cursor, taken from a snapshot before any projection's first load began (see `load`). */
  private currentCursor(): Promise<FeedCursor> {
    if (!this.cursor) {
      this.cursor = this.reader.horizon().then((horizon) => FeedCursor.at(horizon));
      this.cursor.catch(() => (this.cursor = null));
    }
    return this.cursor;
  }

  /** Loads a projection in full, one load at a time; the entries read meanwhile are applied before it goes live. */
  private reload(attached: Attached): void {
    if (attached.loading) attached.again = true;
    else attached.loading = this.load(attached).finally(() => (attached.loading = null));
  }

  private async load(attached: Attached): Promise<void> {
    const { projection } = attached;
    do {
      attached.again = attached.live = false;
      projection.setLive(false);
      // The position is taken before the first load reads anything, so each entry it might miss is read after it.
      await this.currentCursor().catch(() => undefined);
      attached.buffer = [];
      attached.loads++;
      try {
        await projection.load();
        while (attached.buffer.length && !attached.again) {
          const entries = attached.buffer.splice(0);
          attached.again = (await projection.apply(entries)) === 'reload';
        }
      } catch (error) {
        attached.buffer = null;
        if (!this.running) return;
        this.logger.warn({ msg: 'a projection could not load; trying again', projection: projection.name, error: String(error) });
        setTimeout(() => this.running && this.reload(attached), RETRY_LOAD_MS).unref();
        return;
      }
    } while (attached.again && this.running);
    attached.buffer = null;
    attached.live = attached.everLive = true;
    projection.setLive(true);
  }
}
