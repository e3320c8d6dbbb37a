import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeedEntry } from '../change-feed/change-entry';
import { ChangeFeedFollower, Projection } from '../change-feed/change-feed-follower';

/**
 * A catalogue-sized table held in process for the planner (CardQuoteBook, CardSetBook): a projection of the change
 * feed, so a row written by any process shows within a poll (~1 s, at once when nudged) instead of a refresh period,
 * and nothing is re-read that did not change. Attached when an HTTP process boots, so it is loaded before the process
 * reports ready (/health, whenWarm) and no plan pays for the load; a process without HTTP (none plans today) attaches
 * on its first plan, which waits for the load. `current` answers only a live book: a plan never reads a book half
 * loaded, nor one dropped for a reload (the feed pruned past this process), for which it waits.
 *
 * It does not wait for the changes nudged before it (ChangeFeedFollower.settled), unlike the account projections: the
 * catalogue is written by the pricing worker on its own schedule, so no client writes and then reads its own change,
 * and a plan should not wait for a poll that other processes' updates keep busy.
 */
@Injectable()
export abstract class CatalogueBook<T> implements Projection, OnApplicationBootstrap {
  abstract readonly name: string;
  private attached = false;
  private live = false;
  private waiting: (() => void)[] = [];

  constructor(
    @InjectDataSource() protected readonly dataSource: DataSource,
    private readonly follower: ChangeFeedFollower,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter) this.attach();
  }

  /** What the book holds, once it is live (the first call of a process that did not attach it at boot attaches it). */
  async current(): Promise<T> {
    this.attach();
    while (!this.live) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.held();
  }

  setLive(live: boolean): void {
    this.live = live;
    if (live) for (const resolve of this.waiting.splice(0)) resolve();
    else this.drop();
  }

  abstract load(): Promise<void>;
  abstract apply(entries: readonly FeedEntry[]): Promise<void>;
  /**
   * The state `current` answers. `apply` may change it in place: a plan reads it without awaiting anything between
   * `current` and its last use, so it never sees an apply half done.
   */
  protected abstract held(): T;
  /** Forgets the state (a reload begins). */
  protected abstract drop(): void;

  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    this.follower.attach(this);
  }
}
