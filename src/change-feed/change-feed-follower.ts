import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS } from '../common/redis/redis.module';
import { WatchedSubscription } from '../common/redis/watched-subscription';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ChangeKind, FeedEntry } from './change-entry';
import { Nudge, nudgeChannel } from './nudge';
import { FeedCursor, FeedRead } from './feed-cursor';
import { Projection } from './projection';

/** The truth's pace: one indexed read this often, whether nudged or not. */
export const POLL_MS = 1_000;
/** Entries read at most per poll; a full batch is followed by the next at once. */
const BATCH = 1_000;
/** A failed load (PostgreSQL away) is tried again this much later. */
const RETRY_LOAD_MS = 10_000;

const READ_SQL = `WITH h AS (SELECT txid_snapshot_xmin(txid_current_snapshot()) AS horizon)
SELECT h.horizon::text AS horizon,
       (SELECT (p.payload->>'through') FROM change_feed p WHERE p.kind = 'pruned' ORDER BY p.xid DESC, p.id DESC LIMIT 1) AS pruned,
       f.id::text AS id, f.xid::text AS xid, f.kind, f.account_ids AS "accountIds", f.payload
  FROM h LEFT JOIN LATERAL (
    SELECT id, xid, kind, account_ids, payload FROM change_feed
     WHERE (xid, id) > ($1::bigint, $2::bigint) ORDER BY xid, id LIMIT ${BATCH}) f ON true`;

interface ReadRow {
  horizon: string;
  pruned: string | null;
  id: string | null;
  xid: string;
  kind: ChangeKind;
  accountIds: number[];
  payload: Record<string, unknown> | null;
}

interface Attached {
  projection: Projection;
  live: boolean;
  /** Entries read while it loads, applied once it has loaded; null when not loading. */
  buffer: FeedEntry[] | null;
  loading: Promise<void> | null;
  /** A reload was asked for while one ran: it runs again once that one ends. */
  again: boolean;
  loads: number;
}

/**
 * The readers' side of the feed (see change-feed.module.ts): one per process, started by the first projection
 * attached (only HTTP processes attach any). Reads the entries after its position once a second and whenever a nudge
 * is heard, and hands them to every projection; a projection loading meanwhile gets them once it has loaded. Its
 * position survives any outage of Redis (nudges lost: the poll finds the entries) or PostgreSQL (the read fails and
 * is tried again from the same position); only a feed pruned past it reloads every projection in full.
 */
@Injectable()
export class ChangeFeedFollower implements OnApplicationShutdown {
  private readonly logger = new JsonLogger('ChangeFeed');
  private readonly attached = new Map<string, Attached>();
  private cursor: Promise<FeedCursor> | null = null;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private subscription: WatchedSubscription | null = null;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private failing = false;
  /** Nudges heard, and how many of them the last completed poll began after. */
  private heard = 0;
  private covered = 0;
  /** Accounts named by a nudge heard → that nudge's number: pending until a poll begun after it completes. */
  private readonly pendingAccounts = new Map<number, number>();
  private waiters: { after: number; resolve: () => void }[] = [];
  /** When the last poll that read every entry visible to it began (ms). */
  private syncedAt = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Loads the projection and keeps it in step from then on; starts following with the first one. */
  attach(projection: Projection): void {
    const attached: Attached = { projection, live: false, buffer: null, loading: null, again: false, loads: 0 };
    this.attached.set(projection.name, attached);
    this.start();
    this.reload(attached);
  }

  /** Follows the feed (again) from the position held: what committed while stopped is applied at the first poll. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    this.subscription = new WatchedSubscription(this.redis, nudgeChannel(this.config), 'subscriber change feed', {
      message: (raw) => this.hear(raw),
      // Nudges sent while the connection was down are lost: read at once rather than at the next tick.
      subscribed: () => void this.poll(),
      closed: () => undefined,
      failed: (error) => this.logger.error({ msg: 'could not subscribe to the change feed nudges', error: String(error) }),
    });
    void this.poll();
  }

  /** Stops reading (shutdown; tests, to make the projections miss changes); the position is kept. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.close();
    await this.polling;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Resolves once every change nudged before this call is applied (or the poll that would apply it failed). */
  settled(): Promise<void> {
    if (this.covered >= this.heard || !this.running) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ after: this.heard, resolve }));
  }

  /** Whether a change of the account was nudged and is not applied yet: a reader answers it from the stores instead. */
  pending(accountId: number): boolean {
    const nudge = this.pendingAccounts.get(accountId);
    return nudge !== undefined && nudge > this.covered;
  }

  /** Whether a poll begun within the last `ms` applied every entry it could see (a change committed before it). */
  syncedWithin(ms: number): boolean {
    return this.running && Date.now() - this.syncedAt <= ms;
  }

  /** A projection's state, for tests and logs. */
  stateOf(name: string): { live: boolean; loads: number } | undefined {
    const attached = this.attached.get(name);
    return attached && { live: attached.live, loads: attached.loads };
  }

  /** A nudge, heard on the channel or sent by this process's own writer (ChangeFeed.nudge). */
  nudged(nudge: Partial<Nudge> | null): void {
    if (!this.running) return;
    this.heard++;
    for (const id of Array.isArray(nudge?.accountIds) ? nudge.accountIds : []) {
      if (Number.isInteger(id)) this.pendingAccounts.set(id, this.heard);
    }
    void this.poll();
  }

  private hear(raw: string): void {
    let nudge: Partial<Nudge> | null;
    try {
      nudge = JSON.parse(raw) as Partial<Nudge> | null;
    } catch {
      return;
    }
    this.nudged(nudge);
  }

  /** One poll at a time; one asked for meanwhile runs right after (its changes may have committed after the read). */
  private poll(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = this.round().finally(() => {
      this.polling = null;
      if (this.pollAgain && this.running) {
        this.pollAgain = false;
        void this.poll();
      }
    });
    return this.polling;
  }

  private async round(): Promise<void> {
    const nudges = this.heard;
    const began = Date.now();
    try {
      const cursor = await this.currentCursor();
      const read = await this.read(cursor);
      const step = cursor.step(read);
      if (step.gone) {
        this.logger.warn({ msg: 'the change feed was pruned past this process: every projection reloads', position: cursor.position });
        this.cursor = Promise.resolve(FeedCursor.at(read.horizon));
        for (const attached of this.attached.values()) this.reload(attached);
      } else {
        await this.deliver(step.apply);
        this.cursor = Promise.resolve(step.next);
        if (step.complete) this.synced(began, nudges);
        else this.pollAgain = true;
      }
      if (this.failing) this.logger.log({ msg: 'the change feed is read again' });
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.logger.warn({ msg: 'could not read the change feed; trying again', error: String(error) });
      this.failing = true;
      this.release(nudges);
    }
  }

  /** The cursor, taken from a snapshot before any projection's first load began (see `attach`). */
  private currentCursor(): Promise<FeedCursor> {
    if (!this.cursor) {
      this.cursor = this.dataSource
        .query<{ horizon: string }[]>('SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS horizon')
        .then(([row]) => FeedCursor.at(Number(row.horizon)));
      this.cursor.catch(() => (this.cursor = null));
    }
    return this.cursor;
  }

  private async read(cursor: FeedCursor): Promise<FeedRead> {
    const rows = await this.dataSource.query<ReadRow[]>(READ_SQL, [cursor.position.xid, cursor.position.id]);
    const entries: FeedEntry[] = [];
    for (const row of rows) {
      if (row.id === null) continue;
      entries.push({ id: Number(row.id), xid: Number(row.xid), kind: row.kind, accountIds: row.accountIds, payload: row.payload });
    }
    const pruned = rows[0].pruned;
    return {
      entries,
      horizon: Number(rows[0].horizon),
      truncated: entries.length === BATCH,
      pruned: pruned === null ? null : Number(pruned),
    };
  }

  /** Hands the entries to every live projection (throws: the batch is read again), buffers them for a loading one. */
  private async deliver(entries: FeedEntry[]): Promise<void> {
    if (!entries.length) return;
    for (const attached of this.attached.values()) {
      if (attached.buffer) attached.buffer.push(...entries);
      else if (attached.live && (await attached.projection.apply(entries)) === 'reload') this.reload(attached);
    }
  }

  private synced(began: number, nudges: number): void {
    this.syncedAt = began;
    this.covered = Math.max(this.covered, nudges);
    for (const [id, nudge] of this.pendingAccounts) if (nudge <= this.covered) this.pendingAccounts.delete(id);
    this.release(nudges);
  }

  /** Readers waiting for nudges heard before the poll began: it has ended (applied, or failed: answer anyway). */
  private release(nudges: number): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.after <= nudges) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  /** Loads a projection in full, one load at a time; the entries read meanwhile are applied before it goes live. */
  private reload(attached: Attached): void {
    if (attached.loading) {
      attached.again = true;
      return;
    }
    attached.loading = this.load(attached).finally(() => (attached.loading = null));
  }

  private async load(attached: Attached): Promise<void> {
    const { projection } = attached;
    do {
      attached.again = false;
      attached.live = false;
      projection.setLive(false);
      // The position is taken before the first load reads anything, so each entry it might miss is read after it.
      await this.currentCursor().catch(() => undefined);
      attached.buffer = [];
      attached.loads++;
      try {
        await projection.load();
        while (attached.buffer.length && !attached.again) {
          const entries = attached.buffer;
          attached.buffer = [];
          if ((await projection.apply(entries)) === 'reload') attached.again = true;
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
    attached.live = true;
    projection.setLive(true);
  }
}
