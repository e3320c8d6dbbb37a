/**
 * # The rank replica
 *
 * Every `account.getInfo` needs the account's rank on each column board in each of its scopes: ~25 rank look-ups
 * in the engine's Redis sets, two thirds of the profile's Redis time and a round trip of its own. Each HTTP process
 * therefore keeps the column boards in memory (RankReplica: ~9 bytes per board entry, a few hundred MB at a million
 * accounts) and answers the profile's ranks from there in microseconds. Redis stays the engine: the worker writes
 * it, leaderboard pages read it, and it is what a replica falls back to whenever it is not complete.
 *
 * How a replica stays equal to the engine's sets:
 *
 * 1. It subscribes to `RankKeys.placed` first, then reads every refreshed account from PostgreSQL (keyset batches),
 *    builds, applies what it heard meanwhile, and only then serves. A placement heard during the read carries the
 *    row as committed, so applying it again is harmless, and none published after the read began is missed.
 * 2. RankEngine.place publishes the rows it placed right after writing the sets, before the update is announced
 *    complete: a client that reacts to the completion reads the new ranks here as it would in Redis.
 * 3. A rebuild of the engine (rows written behind its back: a seed, a restore) publishes `reload`: the replica stops
 *    serving and reads everything again.
 * 4. Messages sent while the subscriber connection is down are lost, so a closed connection stops the replica
 *    until it is subscribed again and has read everything again. A failed read is retried; meanwhile, and whenever
 *    RANK_REPLICA is off or the process serves no HTTP (the worker, the CLI), ranks are read from Redis.
 */
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS } from '../../common/redis/redis.module';
import { WatchedSubscription } from '../../common/redis/watched-subscription';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { ColumnRanks } from '../column-ranks';
import { RankKeys } from '../rank-keys';
import { placedAccountOf, readRankRows } from '../rank-rows';
import { RANKED_COLUMNS } from '../rank-scopes';
import { PlacedAccount, RankReplica, ReplicaBoard } from './rank-replica';
import { RankReplicaMessage } from './rank-replica-message';

/** A failed read (PostgreSQL away) is tried again this much later. */
const RETRY_LOAD_MS = 10_000;

@Injectable()
export class RankReplicaService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('RankReplica');
  private readonly channel: string;
  /** Served only while complete and subscribed. */
  private replica: RankReplica | null = null;
  /** Placements heard while a read is under way, applied once it is built. */
  private heard: PlacedAccount[][] | null = null;
  /** Bumped by every read started and every stop, so that a read overtaken by either is discarded. */
  private generation = 0;
  private subscription: WatchedSubscription | null = null;
  private retry: NodeJS.Timeout | null = null;
  private loading: Promise<void> = Promise.resolve();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.channel = new RankKeys(config).placed;
  }

  onApplicationBootstrap(): void {
    // Only a process serving HTTP answers profiles; the worker and the CLI share this module but read Redis.
    if (!this.config.rankReplica || !this.adapterHost.httpAdapter) return;
    this.subscription = new WatchedSubscription(this.redis, this.channel, 'subscriber rank replica', {
      message: (raw) => this.onMessage(raw),
      subscribed: () => this.load(),
      closed: () => this.stop(),
      failed: (error) => this.logger.error({ msg: 'could not subscribe to rank placements', error: String(error) }),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    this.stop();
    await subscription?.close();
    await this.loading;
  }

  /** Whether ranks are answered here (tests and the bench wait for it). */
  get serving(): boolean {
    return this.replica !== null;
  }

  /**
   * The account's ranks on every column (RankReplica.columnRanks): null when it is not on the boards, undefined when
   * this process has no complete replica (read Redis instead).
   */
  columnRanks(accountId: number): ColumnRanks | null | undefined {
    return this.replica ? this.replica.columnRanks(accountId) : undefined;
  }

  /**
   * A column's board in one scope from this process's replica (RankReplica.board), for computations that would
   * otherwise look up thousands of ranks in Redis; undefined when this process has no complete replica (or it holds
   * no such board).
   */
  board(column: string, scopeKey: string): ReplicaBoard | undefined {
    return this.replica?.board(column, scopeKey) ?? undefined;
  }

  private stop(): void {
    this.generation++;
    this.replica = null;
    this.heard = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  /** Reads every refreshed account and serves the result, unless a stop or a newer read overtook it. */
  private load(): void {
    this.stop();
    const generation = this.generation;
    this.heard = [];
    const started = Date.now();
    this.loading = this.read(generation).then(
      (replica) => {
        if (generation !== this.generation || !this.heard) return;
        for (const placed of this.heard) for (const account of placed) replica.place(account);
        this.heard = null;
        this.replica = replica;
        const megabytes = Math.round(replica.bytes / 2 ** 20);
        this.logger.log({ msg: 'rank replica loaded', accounts: replica.accounts, megabytes, ms: Date.now() - started });
      },
      (error: unknown) => {
        if (generation !== this.generation || !this.subscription) return;
        this.logger.warn({ msg: 'rank replica not loaded; ranks are read from Redis meanwhile', error: String(error) });
        this.heard = null;
        this.retry = setTimeout(() => this.load(), RETRY_LOAD_MS);
        this.retry.unref();
      },
    );
  }

  private async read(generation: number): Promise<RankReplica> {
    const replica = new RankReplica(RANKED_COLUMNS);
    await readRankRows(this.dataSource, (rows) => {
      // Overtaken (a stop, a newer read): give up at the next batch rather than read a million rows for nothing.
      if (generation !== this.generation) throw new Error('rank replica read overtaken');
      for (const row of rows) replica.add(placedAccountOf(row));
    });
    await replica.fillSets();
    return replica;
  }

  private onMessage(raw: string): void {
    let message: RankReplicaMessage;
    try {
      message = JSON.parse(raw) as RankReplicaMessage;
    } catch {
      return;
    }
    if ('reload' in message) return this.load();
    if (!Array.isArray(message.placed)) return;
    if (this.replica) for (const account of message.placed) this.replica.place(account);
    else this.heard?.push(message.placed);
  }
}
