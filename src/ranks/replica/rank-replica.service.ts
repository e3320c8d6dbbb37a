/**
 * # The rank replica
 *
 * Every `account.getInfo` needs the account's rank on each column board in each of its scopes: ~25 rank look-ups
 * in the engine's Redis sets, two thirds of the profile's Redis time and a round trip of its own. Each HTTP process
 * therefore keeps the column boards in memory (RankReplica: ~9 bytes per board entry, a few hundred MB at a million
 * accounts) and answers the profile's ranks from there in microseconds. Redis stays the engine: the worker writes
 * it, leaderboard pages read it, and it is what a replica falls back to whenever it is not complete.
 *
 * A projection of the change feed (src/change-feed): loaded from every refreshed account's row; each entry that moves
 * an account (an update run, a location set) has its row read again and placed; `ranks-rebuilt` reloads it. The
 * worker nudges right after the run's commit, before the run is announced complete, and until this process has read
 * the entry the account's ranks come from Redis (`pending`), placed by then: a client reacting to the completion
 * reads the new ranks either way. Not live, RANK_REPLICA off, or no HTTP served (worker, CLI): Redis answers.
 */
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { FeedEntry, accountsOf } from '../../change-feed/change-entry';
import { ChangeFeedFollower, Projection } from '../../change-feed/change-feed-follower';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { ColumnRanks } from '../column-ranks';
import { RANK_ROWS_SQL, RankRow, placedAccountOf, readRankRows } from '../rank-rows';
import { RANKED_COLUMNS } from '../rank-scopes';
import { RankReplica, ReplicaBoard } from './rank-replica';

/** The entries that move an account on the column boards (a donation moves it on the donations board). */
const moves = (entry: FeedEntry) =>
  entry.kind === 'update-run' ||
  entry.kind === 'rows-changed' ||
  entry.kind === 'donation' ||
  (entry.kind === 'settings' && entry.payload?.location === true);

@Injectable()
export class RankReplicaService implements OnApplicationBootstrap, Projection {
  readonly name = 'rank-replica';
  private readonly logger = new JsonLogger('RankReplica');
  /** Loaded (and kept in step from then on); served only while live. */
  private replica: RankReplica | null = null;
  private live = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly feed: ChangeFeedFollower,
  ) {}

  onApplicationBootstrap(): void {
    // Only a process serving HTTP answers profiles; the worker and the CLI share this module but read Redis.
    if (this.config.rankReplica && this.adapterHost.httpAdapter) this.feed.attach(this);
  }

  /** Whether ranks are answered here (tests and the bench wait for it). */
  get serving(): boolean {
    return this.live;
  }

  /**
   * The account's ranks on every column (RankReplica.columnRanks): null when it is not on the boards, undefined when
   * this process has no complete replica or has not read the account's latest change yet (read Redis instead).
   */
  columnRanks(accountId: number): ColumnRanks | null | undefined {
    return this.live && !this.feed.pending(accountId) ? this.replica!.columnRanks(accountId) : undefined;
  }

  /**
   * A column's board in one scope from this process's replica (RankReplica.board), for computations that would
   * otherwise look up thousands of ranks in Redis; undefined when this process has no complete replica (or it holds
   * no such board).
   */
  board(column: string, scopeKey: string): ReplicaBoard | undefined {
    return this.live ? (this.replica!.board(column, scopeKey) ?? undefined) : undefined;
  }

  /**
   * The replica itself for population statistics (src/analytics: scopes, scores, whole-scope walks keyed by its
   * `generation`); undefined when this process has no complete replica.
   */
  get statistics(): RankReplica | undefined {
    return this.live ? this.replica! : undefined;
  }

  setLive(live: boolean): void {
    this.live = live;
    if (!live) this.replica = null;
  }

  /** Reads every refreshed account (keyset batches) into a fresh replica. */
  async load(): Promise<void> {
    const started = Date.now();
    const replica = new RankReplica(RANKED_COLUMNS);
    await readRankRows(this.dataSource, (rows) => {
      for (const row of rows) replica.add(placedAccountOf(row));
    });
    await replica.fillSets();
    this.replica = replica;
    const megabytes = Math.round(replica.bytes / 2 ** 20);
    this.logger.log({ msg: 'rank replica loaded', accounts: replica.accounts, megabytes, ms: Date.now() - started });
  }

  /** Places the accounts the entries moved, from their rows as committed now (one statement per batch read). */
  async apply(entries: readonly FeedEntry[]): Promise<void | 'reload'> {
    if (entries.some((entry) => entry.kind === 'ranks-rebuilt')) return 'reload';
    const accountIds = accountsOf(entries, moves);
    if (!accountIds.length || !this.replica) return;
    const rows: RankRow[] = await this.dataSource.query(`${RANK_ROWS_SQL} AND a.account_id = ANY($1)`, [accountIds]);
    for (const row of rows) this.replica.place(placedAccountOf(row));
  }
}
