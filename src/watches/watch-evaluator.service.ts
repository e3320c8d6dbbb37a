import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { Inject } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UpdateProgressService } from '../account-records/progress/update-progress.service';
import { ActivityRecorder } from '../activity/activity-recorder';
import { publicBadgeId } from '../badges/badge-catalog.service';
import { JsonLogger } from '../common/logging/json-logger';
import { FactConsumer } from '../common/redis/fact-consumer';
import { RedisChannel } from '../common/redis/redis-channel';
import { REDIS } from '../common/redis/redis.module';
import { MarketPriceTick } from '../pricing/dto/market-price-tick.dto';
import { PriceTicks } from '../pricing/price-ticks';
import { AccountRankReader } from '../ranks/account-rank-reader.service';
import { AccountWatchEntity } from './entities/account-watch.entity';
import { WATCH_COLUMNS, WatchDelivery } from './watch-delivery';
import { ANY_FRIEND_PREFIX, friendTarget, priceTarget, rankMet, rankTarget } from './watch-targets';

/** The account channel's messages this listens for (UpdateProgressService publishes them). */
interface AccountMessage {
  type: string;
  accountId: number;
  status?: string;
}

/**
 * Evaluates the watches (worker process) on the facts the service already publishes, without touching their
 * publishers: a changed set price (`<prefix>:events:pricing`, after the pricing job's upsert returned the row as
 * changed), a completed update (`<prefix>:events:account`: its ranks were placed before it was announced) and new
 * activity (`<prefix>:events:activity`: a `badge_crafted` of the update). Each fact is an index probe of the waiting
 * watches of its one target (`ix_account_watches_waiting`); most find none. A watch fires in one `UPDATE … WHERE
 * fired_at IS NULL RETURNING`, so however many worker processes hear the fact, one of them fires it, once.
 */
@Injectable()
export class WatchEvaluator implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('WatchEvaluator');
  private readonly facts = new FactConsumer(this.logger, 'could not evaluate watches');
  private readonly accountChannel: RedisChannel<AccountMessage>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ranks: AccountRankReader,
    private readonly prices: PriceTicks,
    private readonly activity: ActivityRecorder,
    private readonly delivery: WatchDelivery,
    progress: UpdateProgressService,
    @Inject(REDIS) redis: Redis,
  ) {
    this.accountChannel = new RedisChannel(redis, progress.channel);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.facts.consume('pricing', this.prices.stream(), (tick) => this.onPrice(tick));
    this.facts.consume('account', this.accountChannel.listen(), (message) => this.onAccount(message));
    this.facts.consume('activity', this.activity.channel.listen(), (message) => this.onActivity(message.ids));
    await Promise.all([this.accountChannel.ready(), this.activity.channel.ready()]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.facts.stop();
    await this.accountChannel.close();
  }

  /** A set whose price changed. A set price of 0 means no card of it is listed: nothing to buy, so nothing fires. */
  async onPrice(tick: MarketPriceTick): Promise<void> {
    if (!(tick.setPrice > 0)) return;
    await this.fire(
      `UPDATE account_watches SET fired_at = now(), fired = jsonb_build_object('setPrice', $2::int)
        WHERE target = $1 AND fired_at IS NULL AND (params->>'atOrBelowCents')::int >= $2
       RETURNING ${WATCH_COLUMNS}`,
      [priceTarget(tick.appId, tick.badgeType === 'foil'), tick.setPrice],
    );
  }

  /** A completed update: the account's rank watches, against its global ranks as just placed. */
  async onAccount(message: AccountMessage): Promise<void> {
    if (message.type !== 'progress' || message.status !== 'completed') return;
    const waiting: AccountWatchEntity[] = await this.dataSource.query(
      `SELECT ${WATCH_COLUMNS} FROM account_watches WHERE target = $1 AND fired_at IS NULL`,
      [rankTarget(message.accountId)],
    );
    if (!waiting.length) return;
    const ranks = await this.ranks.accountRanks(message.accountId);
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

  /** New activity: each `badge_crafted` fires the waiting friend watches of its account whose owner it is still a friend of. */
  async onActivity(ids: string[]): Promise<void> {
    const crafts: { accountId: number; badgeId: number; appId: number; level: number }[] = await this.dataSource.query(
      `SELECT e.account_id AS "accountId", b.id AS "badgeId", b.app_id AS "appId", (e.data->'badge'->>'level')::int AS level
         FROM activity_events e JOIN badges b ON b.id = (e.data->'badge'->>'badgeId')::int
        WHERE e.id = ANY($1::bigint[]) AND e.event_type = 'badge_crafted'
        ORDER BY e.id`,
      [ids.slice(0, 1000)],
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
