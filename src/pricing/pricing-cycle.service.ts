import { releaseLock, tryLock } from '../common/redis/redis-lock';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { MarketCallPace } from '../platform/client/call-budget';
import { PlatformHttpError, PlatformMarketBusyError, PlatformUnavailableError } from '../platform/client/platform-client';
import { AppPricer } from './app-pricer.service';
import { AppCardSets } from './app-card-sets.service';
import { BadgeArt } from './badge-art.service';
import { toMarketPriceTick } from './mappers/market-price-tick.mapper';
import { PriceTicks } from './price-ticks';

/** Apps a cycle adds to the walk at most: a bounded slice of `app_card_classes` per cycle, wherever it stands. */
const ENROL_PER_CYCLE = 1000;

/**
 * The next distinct app ids of `app_card_classes` after $1, by a skip scan of its primary key (one probe per app,
 * not one row per card class); the recursion stops as soon as the LIMIT is met.
 */
const NEXT_CARD_APPS = `
  WITH RECURSIVE seen(app_id) AS (
    (SELECT app_id FROM app_card_classes WHERE app_id > $1 ORDER BY app_id LIMIT 1)
    UNION ALL
    SELECT (SELECT c.app_id FROM app_card_classes c WHERE c.app_id > s.app_id ORDER BY c.app_id LIMIT 1)
      FROM seen s WHERE s.app_id IS NOT NULL)
  SELECT app_id FROM seen WHERE app_id IS NOT NULL LIMIT $2`;

/** The apps checked longest ago (never checked: the epoch), through `ix_app_pricing_checked_at`. */
const OLDEST = 'SELECT app_id FROM app_pricing ORDER BY checked_at, app_id LIMIT $1';

export interface CycleResult {
  /** Apps whose prices were read. */
  priced: number;
  /** Ticks published (sets whose figures changed). */
  ticks: number;
  /** Why the cycle stopped before its batch was done, if it did. */
  stoppedBy?: 'deadline' | 'market' | 'busy' | 'shutdown';
}

/**
 * One pricing cycle: enrol newly seen apps, then price a bounded batch of the apps checked longest ago, as many
 * as the market's call pace lets finish before the deadline (the next cycle), and publish every change. Each
 * cycle does O(batch) work whatever the number of apps and accounts: at tens of thousands of apps the walk simply
 * takes more cycles to come round (see docs/architecture.md, "Market pricing").
 */
@Injectable()
export class PricingCycle {
  private readonly logger = new JsonLogger('PricingCycle');

  constructor(
    private readonly pricer: AppPricer,
    private readonly cardSets: AppCardSets,
    private readonly badgeArt: BadgeArt,
    private readonly pace: MarketCallPace,
    private readonly ticks: PriceTicks,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Runs a cycle unless another process is running one (then null): two would price the same apps twice.
   * An aborted `signal` (shutdown) ends it at once; the app in hand is then left for the next cycle.
   */
  async run(deadline: number, signal?: AbortSignal): Promise<CycleResult | null> {
    const lock = redisKey(this.config, 'pricing', 'cycle-lock');
    const token = await tryLock(this.redis, lock, Math.max(60_000, deadline - Date.now() + 60_000));
    if (!token) return null;
    try {
      await this.enrol();
      // The apps' card sets first (a few market calls): the prices below are of the sets the platform lists.
      await this.readCardSets(signal);
      await this.readBadgeArt(signal);
      return await this.priceBatch(deadline, signal);
    } finally {
      await releaseLock(this.redis, lock, token);
    }
  }

  /**
   * Adds the apps with known cards to the walk, a slice at a time: a cursor in Redis moves through
   * `app_card_classes` and starts over at the end, so an app first seen is walked within a few cycles.
   */
  async enrol(): Promise<void> {
    const cursorKey = redisKey(this.config, 'pricing', 'enrol-cursor');
    const after = Number((await this.redis.get(cursorKey)) ?? 0);
    const rows: { app_id: number }[] = await this.dataSource.query(NEXT_CARD_APPS, [after, ENROL_PER_CYCLE]);
    const ids = rows.map((row) => row.app_id);
    if (ids.length) {
      await this.dataSource.query(
        `INSERT INTO app_pricing (app_id, checked_at) SELECT unnest($1::int[]), to_timestamp(0) ON CONFLICT (app_id) DO NOTHING`,
        [ids],
      );
    }
    await this.redis.set(cursorKey, ids.length < ENROL_PER_CYCLE ? 0 : ids[ids.length - 1]);
  }

  /** The card sets due (AppCardSets); a market that is away or busy leaves them to the next cycle. */
  private async readCardSets(signal?: AbortSignal): Promise<void> {
    try {
      await this.cardSets.refreshDue(undefined, signal);
    } catch (error) {
      if (signal?.aborted) return;
      if (!(error instanceof PlatformUnavailableError || error instanceof PlatformMarketBusyError)) throw error;
      this.logger.warn({ msg: 'card sets not read this cycle', error: error.message });
    }
  }

  /** The badges' names and images due (BadgeArt), a few paced calls; a platform away or busy leaves them for later. */
  private async readBadgeArt(signal?: AbortSignal): Promise<void> {
    try {
      await this.badgeArt.refreshDue(undefined, signal);
    } catch (error) {
      if (signal?.aborted) return;
      if (!(error instanceof PlatformUnavailableError || error instanceof PlatformMarketBusyError)) throw error;
      this.logger.warn({ msg: 'badge names and images not read this cycle', error: error.message });
    }
  }

  private async priceBatch(deadline: number, signal?: AbortSignal): Promise<CycleResult> {
    const result: CycleResult = { priced: 0, ticks: 0 };
    const batch: { app_id: number }[] = await this.dataSource.query(OLDEST, [this.config.pricing.batchApps]);
    for (const { app_id: appId } of batch) {
      if (signal?.aborted) {
        result.stoppedBy = 'shutdown';
        break;
      }
      const names = await this.pricer.cardNames(appId);
      if (!names.length) {
        // Its cards are no longer held anywhere: nothing to ask the market, so let the walk move past it.
        await this.pricer.markChecked(appId, new Date());
        continue;
      }
      // Stop before an app whose calls cannot finish in time, but always price one: an app with more cards
      // than a cycle's share of the pace would otherwise never be priced.
      if (result.priced > 0 && Date.now() + (await this.pace.timeForCalls(names.length * 2)) > deadline) {
        result.stoppedBy = 'deadline';
        break;
      }
      try {
        const prices = await this.pricer.read(appId, names, signal);
        const at = new Date();
        const changed = await this.pricer.store(appId, prices, at);
        result.priced++;
        for (const price of changed) await this.ticks.publish(toMarketPriceTick(price, at));
        result.ticks += changed.length;
      } catch (error) {
        if (signal?.aborted) {
          result.stoppedBy = 'shutdown';
          break;
        }
        // The market is away or its queue is full: leave this app at the head of the walk for the next cycle.
        if (error instanceof PlatformUnavailableError) {
          this.logger.warn({ msg: 'market unavailable; cycle stopped', appId, error: error.message });
          result.stoppedBy = 'market';
          break;
        }
        if (error instanceof PlatformMarketBusyError) {
          result.stoppedBy = 'busy';
          break;
        }
        // A 4xx is about this app (a card name the market refuses, say) and will not change: move past it.
        if (!(error instanceof PlatformHttpError)) throw error;
        this.logger.error({ msg: 'app not priced', appId, error: error.message });
        await this.pricer.markChecked(appId, new Date());
      }
    }
    return result;
  }
}
