import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { Readable } from 'node:stream';
import { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS } from '../../common/redis/redis.module';
import { WatchedSubscription } from '../../common/redis/watched-subscription';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { FriendGraphService } from '../friend-graph.service';
import { CompletedRun, completedRunsChannel, completedRunsSince, parseCompletedRun } from '../../account-records/completed-runs';
import { FriendAdjacency, FriendRows } from './friend-adjacency';
import { copyFriendRows } from './friend-rows-copy';
import { NeighbourReader } from './friend-search';

/**
 * How far back a catch-up looks for completed runs it has not applied yet. A run's `finished_at` is stamped by its
 * worker before its transaction commits, so a run can become visible after one stamped later; a search's own
 * catch-up looks back a little, the sweep far.
 */
const CATCH_UP_LOOKBACK_MS = 5_000;
const SWEEP_LOOKBACK_MS = 60_000;
const SWEEP_EVERY_MS = 2_000;
/** A failed load (PostgreSQL away at boot) is tried again this much later; requests use PostgreSQL meanwhile. */
const RETRY_LOAD_MS = 10_000;
/** Replaced lists are folded into fresh arrays once there are this many (their Map costs ~100 bytes of heap each). */
const COMPACT_AFTER = 50_000;

/**
 * The stored friend graph in memory (FriendAdjacency), for `account.findFriendPath` and the owners' paths of
 * `item.findOwners`: a search reads a level of the graph in microseconds instead of a query. Loaded with one COPY
 * when an HTTP process boots (~6 rows per account; seconds at a million accounts); until then searches read
 * PostgreSQL (FriendGraphService.neighbours), same answers, slower.
 *
 * Kept in step from committed rows: the writer replaces an account's friend rows in the transaction that completes
 * its update run, so each completed run names an account whose friendships (both directions) are read again.
 * - The worker publishes each run as it commits (completed-runs.ts), before the run is announced complete; the graph
 *   applies what it hears in order, and a search waits for what was heard before it: no query of its own.
 * - That holds only while the subscription is unbroken and a sweep begun after it was made has applied everything
 *   before (`listening`). Otherwise (Redis away, a dropped connection, the first seconds) every search first asks
 *   for the runs completed since the last it applied (one small query on ix_account_updates_completed), as the
 *   tables would answer.
 * - A sweep every 2 s looks a minute back, for runs that committed late or whose message was lost.
 * Rows written behind the service's back (a seed, SQL by hand) show after the process restarts.
 */
@Injectable()
export class FriendGraphCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('FriendGraphCache');
  private graph: FriendAdjacency | null = null;
  /** The latest `finished_at` applied (ms), and the runs applied within the sweep's lookback from it. */
  private watermark = 0;
  private readonly applied = new Map<string, number>();
  /** Runs are applied one batch at a time (an older read applied after a newer one would undo it). */
  private queue: Promise<void> = Promise.resolve();
  private sweeping: Promise<unknown> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private copying: Readable | null = null;
  private stopped = false;
  private subscription: WatchedSubscription | null = null;
  /** Bumped whenever the subscription drops: a sweep begun before cannot vouch for what was published meanwhile. */
  private connection = 0;
  private subscribed = false;
  /** Subscribed, and a sweep begun since has applied every earlier run: searches need not ask PostgreSQL. */
  private listening = false;
  /** Runs heard and not yet applied (applied together, in turn with the other applies). */
  private heard: CompletedRun[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly stored: FriendGraphService,
  ) {}

  onApplicationBootstrap(): void {
    // Only a process serving HTTP answers searches; the CLI shares this module but never needs the graph.
    if (!this.adapterHost.httpAdapter) return;
    this.subscription = new WatchedSubscription(this.redis, completedRunsChannel(this.config), 'subscriber friend graph', {
      message: (raw) => this.hear(raw),
      subscribed: () => {
        this.subscribed = true;
        this.sweep();
      },
      closed: () => {
        this.connection++;
        this.subscribed = false;
        this.listening = false;
      },
      failed: (error) => this.logger.error({ msg: 'could not subscribe to completed runs', error: String(error) }),
    });
    void this.load();
    this.timer = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.copying?.destroy(new Error('shutting down'));
    await this.subscription?.close();
    await this.sweeping;
    await this.queue;
  }

  /**
   * What a search reads: the in-memory graph with every run heard before this call applied (or, while the graph does
   * not rely on what it hears, every run found completed), or PostgreSQL while the graph loads.
   */
  async reader(): Promise<NeighbourReader> {
    if (!this.graph) return this.stored.neighbours;
    if (this.listening) {
      // Every run heard before this search is applied first (the applies are serial).
      await this.queue;
      return this.graph.read;
    }
    // Each search asks on its own (beside any vanity lookup of its request); applying what it finds is serial.
    const runs = await this.runsSince(CATCH_UP_LOOKBACK_MS);
    if (runs.length) await this.serially(() => this.apply(runs));
    return this.graph.read;
  }

  /** Whether the graph is in memory (tests and the bench wait for it). */
  get loaded(): boolean {
    return this.graph !== null;
  }

  /** Whether searches rely on the runs heard rather than asking PostgreSQL (tests wait for it). */
  get inStep(): boolean {
    return this.listening;
  }

  /**
   * Applies the runs completed within the sweep's lookback that are not applied yet. One begun while subscribed, with
   * no drop since, covers every run the subscription did not hear: from then on searches wait only for what is heard.
   */
  private sweep(): void {
    if (!this.graph || this.sweeping || this.stopped) return;
    const [connection, subscribed] = [this.connection, this.subscribed];
    this.sweeping = this.runsSince(SWEEP_LOOKBACK_MS)
      .then((runs) => (runs.length ? this.serially(() => this.apply(runs)) : undefined))
      .then(() => {
        if (subscribed && connection === this.connection) this.listening = true;
      })
      .catch((error: Error) => this.logger.debug({ msg: 'friend graph sweep failed', error: error.message }))
      .finally(() => (this.sweeping = null));
  }

  /** A run heard on the channel: applied after those before it, with any heard while they were applied. */
  private hear(raw: string): void {
    // Until the graph is loaded the sweep that follows the load finds the runs completed meanwhile.
    const message = parseCompletedRun(raw);
    if (!this.graph || !message) return;
    this.heard.push({ run_id: message.runId, account_id: message.accountId, finished_at: new Date(message.finishedAt) });
    if (this.heard.length > 1) return;
    this.serially(() => {
      const runs = this.heard;
      this.heard = [];
      return this.apply(runs);
    }).catch((error: Error) => this.logger.debug({ msg: 'friend graph update failed; the sweep retries', error: error.message }));
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<void> {
    const started = Date.now();
    try {
      // Runs completing while the COPY reads are applied by the sweep that follows the load: they finish after now.
      const [{ now }]: { now: Date }[] = await this.dataSource.query('SELECT now() AS now');
      const rows = await this.copyRows();
      const graph = await FriendAdjacency.fromRows(rows);
      if (this.stopped) return;
      this.watermark = now.getTime();
      this.graph = graph;
      this.sweep();
      const { accounts, friendships, bytes } = graph.stats();
      this.logger.log({
        msg: 'friend graph loaded',
        accounts,
        friendships,
        megabytes: Math.round(bytes / 2 ** 20),
        ms: Date.now() - started,
      });
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn({ msg: 'friend graph load failed; searching PostgreSQL meanwhile', error: (error as Error).message });
      setTimeout(() => void this.load(), RETRY_LOAD_MS).unref();
    }
  }

  /** The stored rows over a pooled connection; one left mid-COPY (shutdown) is closed rather than returned. */
  private async copyRows(): Promise<FriendRows> {
    const driver = this.dataSource.driver as PostgresDriver;
    const [client, release] = (await driver.obtainMasterConnection()) as [PoolClient, (error?: Error) => void];
    let failure: Error | undefined;
    try {
      return await copyFriendRows(client, (stream) => (this.copying = stream));
    } catch (error) {
      failure = error as Error;
      throw error;
    } finally {
      this.copying = null;
      release(failure);
    }
  }

  /** The completed runs not applied yet among those finished since `lookbackMs` before the watermark. */
  private async runsSince(lookbackMs: number): Promise<CompletedRun[]> {
    const runs = await completedRunsSince(this.dataSource, new Date(this.watermark - lookbackMs));
    return runs.filter((run) => !this.applied.has(run.run_id));
  }

  /** Reads the friendships of the runs' accounts again (both directions) and puts them in the graph. */
  private async apply(found: CompletedRun[]): Promise<void> {
    // Another search may have applied them while this one waited its turn.
    const runs = found.filter((run) => !this.applied.has(run.run_id));
    if (!runs.length) return;
    const graph = this.graph!;
    const accounts = [...new Set(runs.map((run) => run.account_id))];
    const { lists } = await this.stored.neighbours(accounts, Infinity);
    for (const [i, id] of accounts.entries()) graph.replace(id, lists[i]);
    for (const run of runs) {
      const finished = run.finished_at.getTime();
      this.applied.set(run.run_id, finished);
      this.watermark = Math.max(this.watermark, finished);
    }
    for (const [runId, finished] of this.applied) if (finished <= this.watermark - SWEEP_LOOKBACK_MS) this.applied.delete(runId);
    if (graph.changedLists >= COMPACT_AFTER) this.graph = await graph.compacted();
  }
}
