import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { JsonLogger } from '../../common/logging/json-logger';
import { FeedEntry, accountsOf } from '../../change-feed/change-entry';
import { ChangeFeedFollower, Projection } from '../../change-feed/change-feed-follower';
import { FriendGraphService } from '../friend-graph.service';
import { FriendAdjacency, FriendRows } from './friend-adjacency';
import { copyFriendRows } from './friend-rows-copy';
import { NeighbourReader } from './friend-search';

/** Replaced lists are folded into fresh arrays once there are this many (their Map costs ~100 bytes of heap each). */
const COMPACT_AFTER = 50_000;

/** The entries that replace an account's friend rows: a completed update run (or rows written by hand). */
const replacesFriends = (entry: FeedEntry) => entry.kind === 'update-run' || entry.kind === 'rows-changed';

/**
 * The stored friend graph in memory (FriendAdjacency), for `account.findFriendPath` and the owners' paths of
 * `item.findOwners`: a search reads a level of the graph in microseconds instead of a query. Loaded with one COPY
 * when an HTTP process boots (~6 rows per account; seconds at a million accounts); until then searches read
 * PostgreSQL (FriendGraphService.neighbours), same answers, slower.
 *
 * A projection of the change feed (src/change-feed): the writer replaces an account's friend rows in the transaction
 * that completes its update run, which records the run's entry; each entry read has that account's friendships (both
 * directions) read again. A search waits for the changes nudged before it (the worker nudges before the run is
 * announced complete), so it reflects every update announced complete before the request. Rows written behind the
 * service's back (a seed, SQL by hand) show once a feed entry names them, or after the process restarts.
 */
@Injectable()
export class FriendGraphCache implements OnApplicationBootstrap, OnApplicationShutdown, Projection {
  readonly name = 'friend-graph';
  private readonly logger = new JsonLogger('FriendGraphCache');
  private graph: FriendAdjacency | null = null;
  private live = false;
  private copying: Readable | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly adapterHost: HttpAdapterHost,
    private readonly stored: FriendGraphService,
    private readonly feed: ChangeFeedFollower,
  ) {}

  onApplicationBootstrap(): void {
    // Only a process serving HTTP answers searches; the CLI shares this module but never needs the graph.
    if (this.adapterHost.httpAdapter) this.feed.attach(this);
  }

  onApplicationShutdown(): void {
    this.copying?.destroy(new Error('shutting down'));
  }

  /** What a search reads: the in-memory graph with every change nudged before this call applied, or PostgreSQL. */
  async reader(): Promise<NeighbourReader> {
    if (!this.live) return this.stored.neighbours;
    await this.feed.settled();
    return this.live ? this.graph!.read : this.stored.neighbours;
  }

  /** Whether searches read the graph in memory (tests and the bench wait for it). */
  get loaded(): boolean {
    return this.live;
  }

  setLive(live: boolean): void {
    this.live = live;
    if (!live) this.graph = null;
  }

  async load(): Promise<void> {
    const started = Date.now();
    this.graph = await FriendAdjacency.fromRows(await this.copyRows());
    const { accounts, friendships, bytes } = this.graph.stats();
    const megabytes = Math.round(bytes / 2 ** 20);
    this.logger.log({ msg: 'friend graph loaded', accounts, friendships, megabytes, ms: Date.now() - started });
  }

  /** Reads the friendships of the entries' accounts again (both directions) and puts them in the graph. */
  async apply(entries: readonly FeedEntry[]): Promise<void> {
    const accounts = accountsOf(entries, replacesFriends);
    if (!accounts.length || !this.graph) return;
    const { lists } = await this.stored.neighbours(accounts, Infinity);
    for (const [i, id] of accounts.entries()) this.graph.replace(id, lists[i]);
    if (this.graph.changedLists >= COMPACT_AFTER) this.graph = await this.graph.compacted();
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
}
