import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AccountLookupService } from '../../account-records/account-lookup.service';
import { Principal } from '../../common/auth/principal';
import { forbidden, ProblemException } from '../../common/problem/problem.exception';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { steamId64Of } from '../../platform/client/account-ids';
import { MarketCallPace } from '../../platform/client/call-budget';
import { PlatformClient } from '../../platform/client/platform-client';
import { PlatformError, PlatformHttpError } from '../../platform/client/platform.errors';
import { PlatformSpending } from '../../platform/spending/platform-spending';
import {
  DROPS_GAMES_PER_REQUEST,
  V1AccountGetDropsWorthRequestBody,
  V1AccountGetDropsWorthResponseBody,
  V1DropsGame,
} from './drops-worth.dto';

/** A badge page's drops are reused this long: they only fall as cards drop, and rise only with hours of play. */
export const DROPS_CACHE_SECONDS = 6 * 3600;
/** Time one request may wait for the community site's pace (shared with the pricing job) before it answers. */
export const DROPS_READ_BUDGET_MS = 15_000;

/**
 * The account's games with cards, most playtime first, at most DROPS_GAMES_PER_REQUEST, and how many there are: a
 * range of the account's own library rows (account_apps PK), each joined to its set (app_card_counts PK) and name.
 */
const GAMES_SQL = `
  SELECT aa.app_id, aa.playtime, COALESCE(a.name, '') AS app_name,
         COALESCE(cardinality(k.card_names), NULLIF(k.cards, 0), k.classes) AS set_size, count(*) OVER ()::int AS total
    FROM account_apps aa
    JOIN app_card_counts k ON k.app_id = aa.app_id
    LEFT JOIN apps a ON a.app_id = aa.app_id
   WHERE aa.account_id = $1 AND COALESCE(cardinality(k.card_names), NULLIF(k.cards, 0), k.classes, 0) > 0
   ORDER BY aa.playtime DESC, aa.app_id
   LIMIT $2`;

/** Per app, the listed normal cards' lowest prices (sum, count) and the oldest quote: card_market_prices PK ranges. */
const PRICES_SQL = `
  SELECT app_id, sum(lowest_price)::bigint AS total, count(lowest_price)::int AS priced,
         (extract(epoch FROM min(updated_at) FILTER (WHERE lowest_price IS NOT NULL)) * 1000)::bigint AS updated_at
    FROM card_market_prices WHERE app_id = ANY($1::int[]) AND badge_type = 'normal' GROUP BY app_id`;

interface GameRow {
  app_id: number;
  playtime: number;
  app_name: string;
  set_size: number;
  total: number;
}

/** A badge page read: the drops it said (null: it did not say) and when. */
interface DropsRead {
  remaining: number | null;
  readAt: number;
}

/**
 * # Card drops and their worth (`account.getDropsWorth`)
 *
 * The platform says how many card drops a game has left only on the account's badge page of the game
 * (`/profiles/{id}/gamecards/{appid}/`, "N card drops remaining"; PlatformClient.getBadgePage), one community call a
 * game. So the answer reads those pages on demand, for the account's games with cards and the most playtime, at most
 * DROPS_GAMES_PER_REQUEST (said in `totals`), and keeps each read in Redis for DROPS_CACHE_SECONDS: nothing new is
 * stored in PostgreSQL. The pages not cached are charged to the caller's account's share of the platform budget
 * (PlatformSpending: 429/503 with Retry-After once spent; given back for pages not read) and wait for the community
 * site's pace (MarketCallPace, shared with the pricing job): what the pace cannot serve within DROPS_READ_BUDGET_MS,
 * or a platform that is away, leaves games pending (`dropsRemaining` null, counted in `totals.pendingGames`) for the
 * next ask, never a 500. A drop is a uniformly random normal card of the set, so a game's drops are worth
 * drops × the mean lowest listing of the set's normal cards (`card_market_prices`, the pricing job's quotes).
 */
@Injectable()
export class DropsWorthService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly platform: PlatformClient,
    private readonly pace: MarketCallPace,
    private readonly spending: PlatformSpending,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async worth(request: V1AccountGetDropsWorthRequestBody, principal: Principal): Promise<V1AccountGetDropsWorthResponseBody> {
    const account = await this.lookup.findTracked(request);
    const { accountId } = account;
    if (account.privacy === 'private')
      throw forbidden(`The profile of account ${accountId} is private: its badge pages, and so its card drops, cannot be read.`);
    if (!account.updatedAt)
      throw new ProblemException(409, `Account ${accountId} was not refreshed yet: queue an update (account.queueUpdate), then ask again.`);

    const rows: GameRow[] = await this.dataSource.query(GAMES_SQL, [accountId, DROPS_GAMES_PER_REQUEST]);
    const appIds = rows.map((row) => row.app_id);
    const [drops, prices] = await Promise.all([
      this.drops(accountId, appIds, principal),
      appIds.length
        ? (this.dataSource.query(PRICES_SQL, [appIds]) as Promise<
            { app_id: number; total: string | null; priced: number; updated_at: string | null }[]
          >)
        : Promise.resolve([]),
    ]);
    const priceOf = new Map(prices.map((row) => [row.app_id, row]));

    const games: V1DropsGame[] = rows.map((row) => {
      const read = drops.get(row.app_id) ?? null;
      const price = priceOf.get(row.app_id);
      const priced = price?.priced ?? 0;
      const total = Number(price?.total ?? 0);
      const remaining = read?.remaining ?? null;
      return {
        appId: row.app_id,
        appName: row.app_name,
        playtime: row.playtime,
        setSize: row.set_size,
        dropsRemaining: remaining,
        dropsReadAt: read?.readAt ?? null,
        meanCardPrice: priced ? Math.round(total / priced) : null,
        pricedCards: priced,
        // drops × sum / count in one division: the exact mean's product, rounded once.
        worth: priced && remaining !== null ? Math.round((remaining * total) / priced) : null,
        pricesUpdatedAt: priced && price?.updated_at ? Number(price.updated_at) : null,
      };
    });
    const oldest = (values: (number | null)[]) =>
      values.reduce<number | null>((min, value) => (value === null ? min : min === null ? value : Math.min(min, value)), null);
    return {
      games,
      totals: {
        gamesWithCards: rows[0]?.total ?? 0,
        gamesRead: games.length,
        pendingGames: games.filter((game) => game.dropsReadAt === null).length,
        dropsRemaining: games.reduce((sum, game) => sum + (game.dropsRemaining ?? 0), 0),
        worth: games.reduce((sum, game) => sum + (game.worth ?? 0), 0),
        unpricedGames: games.filter((game) => (game.dropsRemaining ?? 0) > 0 && game.worth === null).length,
      },
      pricesUpdatedAt: oldest(games.map((game) => game.pricesUpdatedAt)),
      dropsReadAt: oldest(games.map((game) => game.dropsReadAt)),
    };
  }

  /**
   * The drops of each game: from the cache, else read now — as many pages as the pace serves within the read budget,
   * reserved first against the caller's account and settled with the pages actually asked for.
   */
  private async drops(accountId: number, appIds: number[], principal: Principal): Promise<Map<number, DropsRead>> {
    const out = new Map<number, DropsRead>();
    if (!appIds.length) return out;
    const cached = await this.redis.mget(appIds.map((appId) => this.key(accountId, appId)));
    const misses: number[] = [];
    appIds.forEach((appId, i) => {
      const value = cached[i];
      if (value === null) misses.push(appId);
      else out.set(appId, JSON.parse(value) as DropsRead);
    });
    if (!misses.length) return out;
    const waitMs = await this.pace.timeForCalls(0);
    const fit = Math.max(0, Math.min(misses.length, Math.floor((DROPS_READ_BUDGET_MS - waitMs) / this.pace.spacingMs)));
    if (!fit) return out;
    const toRead = misses.slice(0, fit);
    const reservation = await this.spending.reserve(principal.accountId, toRead.length);
    let asked = 0;
    try {
      const steamId = steamId64Of(accountId);
      for (const appId of toRead) {
        asked++;
        let read: DropsRead;
        try {
          const page = await this.platform.getBadgePage(steamId, { appId, foil: false });
          if (page.visibility === 'private')
            throw forbidden(`The profile of account ${accountId} is private: its badge pages, and so its card drops, cannot be read.`);
          read = { remaining: page.dropsRemaining, readAt: Date.now() };
        } catch (error) {
          // A game the platform does not know (404): known to say nothing, for a while like a read.
          if (error instanceof PlatformHttpError && error.status === 404) read = { remaining: null, readAt: Date.now() };
          // The platform away or its pace saturated: the rest stays pending for the next ask.
          else if (error instanceof PlatformError) break;
          else throw error;
        }
        out.set(appId, read);
        await this.redis.set(this.key(accountId, appId), JSON.stringify(read), 'EX', DROPS_CACHE_SECONDS);
      }
    } finally {
      await reservation.settle(asked).catch(() => undefined);
    }
    return out;
  }

  private key(accountId: number, appId: number): string {
    return redisKey(this.config, 'drops', accountId, appId);
  }
}
