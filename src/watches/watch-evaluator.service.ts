import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { publicBadgeId } from '../badges/badge-catalog.service';
import { FeedEntry, SetPricesChange } from '../change-feed/change-entry';
import { DurableFeedConsumer, FeedHandler } from '../change-feed/consumer/durable-feed-consumer';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AccountRankReader } from '../ranks/account-rank-reader.service';
import { RankEngine } from '../ranks/rank-engine.service';
import { AccountWatchEntity } from './entities/account-watch.entity';
import { WATCH_COLUMNS, WatchDelivery } from './watch-delivery';
import { ANY_FRIEND_PREFIX, friendTarget, priceTarget, rankMet, rankTarget } from './watch-targets';

/** Crafts of one run read at most (a run's activity is a few events; the cap bounds a pathological one). */
const CRAFTS_PER_RUN = 1_000;

/**
 * Evaluates the watches (worker process) on the change feed, through a durable consumer
 * (change-feed/consumer/durable-feed-consumer.ts): a fact committed while no worker runs is handled once one is back.
 * Two kinds of entry: `set-prices` (the pricing job's changed sets, recorded with the prices) and `update-run` (an
 * account's committed update: its rank watches, and the `badge_crafted` events it recorded for friend watches). Each
 * fact is an index probe of the waiting watches of its one target (`ix_account_watches_waiting`); most find none. A
 * watch fires in one `UPDATE … WHERE fired_at IS NULL RETURNING`, so an entry handled twice (the consumer is at
 * least once) fires nothing the second time.
 */
@Injectable()
export class WatchEvaluator implements FeedHandler, OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly name = 'watches';
  private readonly logger = new JsonLogger('WatchEvaluator');
  readonly consumer: DurableFeedConsumer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ranks: AccountRankReader,
    private readonly engine: RankEngine,
    private readonly delivery: WatchDelivery,
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.consumer = new DurableFeedConsumer(dataSource, redis, config, this);
  }

  onApplicationBootstrap(): void {
    this.consumer.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.consumer.stop();
  }

  /** The entries in feed order; a failure throws, so the consumer hands the same entries again at its next round. */
  async handle(entries: readonly FeedEntry[]): Promise<void> {
    for (const entry of entries) {
      if (entry.kind === 'set-prices') {
        const change = entry.payload as unknown as SetPricesChange;
        for (const set of change.sets) await this.onPrice(change.appId, set.badgeType === 'foil', set.setPrice);
      } else if (entry.kind === 'update-run') {
        for (const accountId of entry.accountIds) await this.onUpdated(accountId);
        const range = entry.payload?.activityIds;
        if (Array.isArray(range) && range.length === 2) await this.onCrafts(entry.accountIds, range as [number, number]);
      }
    }
  }

  /** A set whose price changed. A set price of 0 means no card of it is listed: nothing to buy, so nothing fires. */
  async onPrice(appId: number, foil: boolean, setPrice: number): Promise<void> {
    if (!(setPrice > 0)) return;
    await this.fire(
      `UPDATE account_watches SET fired_at = now(), fired = jsonb_build_object('setPrice', $2::int)
        WHERE target = $1 AND fired_at IS NULL AND (params->>'atOrBelowCents')::int >= $2
       RETURNING ${WATCH_COLUMNS}`,
      [priceTarget(appId, foil), setPrice],
    );
  }

  /** A committed update: the account's rank watches, against its global ranks as its committed row places it. */
  async onUpdated(accountId: number): Promise<void> {
    const waiting: AccountWatchEntity[] = await this.dataSource.query(
      `SELECT ${WATCH_COLUMNS} FROM account_watches WHERE target = $1 AND fired_at IS NULL`,
      [rankTarget(accountId)],
    );
    if (!waiting.length) return;
    // The entry is read as soon as the run commits, before its updater places the account on the boards (Redis), and
    // after a crash in between it never would: placing it here from its committed row (idempotent) makes the ranks
    // read next the run's own.
    await this.engine.place([accountId]);
    const ranks = await this.ranks.accountRanks(accountId);
    // No ranks at all (the account's rows or its ranks are not there): nothing is known, so nothing crosses.
    if (!ranks) return;
    for (const watch of waiting) {
      const rank = ranks.get(watch.params.leaderboard!)?.ranks[0] || null;
      if (rankMet(watch.params, rank) && !rankMet(watch.params, watch.lastValue)) {
        await this.fire(
          `UPDATE account_watches SET fired_at = now(), last_value = $3,
                  fired = jsonb_build_object('rank', $3::int, 'previousRank', $2::int)
            WHERE watch_id = $1 AND fired_at IS NULL
           RETURNING ${WATCH_COLUMNS}`,
          [watch.watchId, watch.lastValue, rank],
        );
      } else if (rank !== watch.lastValue) {
        await this.dataSource.query('UPDATE account_watches SET last_value = $2 WHERE watch_id = $1 AND fired_at IS NULL', [
          watch.watchId,
          rank,
        ]);
      }
    }
  }

  /**
   * A run's crafts: its `badge_crafted` events, the account's (`ix_activity_events_account_feed`) with ids in the
   * entry's range (the account's row was locked while they were written, so no other run's events of it lie there). Each fires the waiting friend watches
   * of its account whose owner it is still a friend of.
   */
  async onCrafts(accountIds: number[], [first, last]: [number, number]): Promise<void> {
    const crafts: { accountId: number; badgeId: number; appId: number; level: number }[] = await this.dataSource.query(
      `SELECT e.account_id AS "accountId", b.id AS "badgeId", b.app_id AS "appId", (e.data->'badge'->>'level')::int AS level
         FROM activity_events e JOIN badges b ON b.id = (e.data->'badge'->>'badgeId')::int
        WHERE e.id BETWEEN $1 AND $2 AND e.account_id = ANY($3::int[]) AND e.event_type = 'badge_crafted'
        ORDER BY e.id LIMIT ${CRAFTS_PER_RUN}`,
      [first, last, accountIds],
    );
    for (const craft of crafts) {
      const fired = `fired_at = now(),
          fired = jsonb_build_object('friendAccountId', $2::int, 'badgeId', $3::text, 'appId', $4::int, 'level', $5::int)`;
      const ofApp = `(w.params->>'appId' IS NULL OR (w.params->>'appId')::int = $4)`;
      const parameters = [friendTarget(craft.accountId), craft.accountId, publicBadgeId(craft.badgeId), craft.appId, craft.level];
      // Watches of this friend, whose owner still lists them as a friend.
      await this.fire(
        `UPDATE account_watches w SET ${fired}
          WHERE w.target = $1 AND w.fired_at IS NULL AND ${ofApp}
            AND EXISTS (SELECT 1 FROM account_friends f WHERE f.account_id = w.account_id AND f.friend_account_id = $2)
         RETURNING ${WATCH_COLUMNS}`,
        parameters,
      );
      // Watches of any friend: the owners listing the crafter (ix_account_friends_friend), then each one's waiting watches.
      await this.fire(
        `UPDATE account_watches w SET ${fired}
          WHERE w.target IN (SELECT $1::text || f.account_id::text FROM account_friends f WHERE f.friend_account_id = $2)
            AND w.fired_at IS NULL AND ${ofApp}
         RETURNING ${WATCH_COLUMNS}`,
        [ANY_FRIEND_PREFIX, ...parameters.slice(1)],
      );
    }
  }

  /** Runs a firing statement and delivers each watch it fired. */
  private async fire(sql: string, parameters: unknown[]): Promise<void> {
    const [rows]: [AccountWatchEntity[], number] = await this.dataSource.query(sql, parameters);
    for (const row of rows) {
      this.logger.info({ msg: 'watch fired', watchId: row.watchId, kind: row.kind, accountId: row.accountId });
      await this.delivery.deliver(row);
    }
  }
}
