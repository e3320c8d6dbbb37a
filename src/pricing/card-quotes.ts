import type { EntityManager } from 'typeorm';
import type { MarketPrice } from '../platform/client/platform.types';
import type { BadgeType } from './entities/app-market-price.entity';
import { SetPrice, setPriceOf } from './set-price';

/** One trading card's quote as `card_market_prices` keeps it (USD cents); see CardMarketPriceEntity for each field. */
export interface CardQuote {
  appId: number;
  badgeType: BadgeType;
  marketHashName: string;
  lowestPrice: number | null;
  /** The median sale of the last 24 hours: the nearest the price call comes to the highest buy order. */
  buyPrice: number | null;
  volume: number;
}

/** What one read of an app's market gives: both sets' figures and the quote of each of their cards. */
export interface AppQuotes {
  sets: SetPrice[];
  cards: CardQuote[];
}

/** The foil card of a normal card, as the market names it. */
export function foilNameOf(normalName: string): string {
  return `${normalName} (Foil)`;
}

/**
 * Both sets of an app from its normal cards' names and a quote function (the market call, or the simulator's price
 * for the seed): the set figures and the card quotes come from the same quotes, so `app_market_prices.set_price`
 * is always the sum of the set's `card_market_prices.lowest_price`.
 */
export function appQuotesOf(appId: number, names: string[], normal: (MarketPrice | null)[], foil: (MarketPrice | null)[]): AppQuotes {
  const cards = (badgeType: BadgeType, quotes: (MarketPrice | null)[], name: (n: string) => string): CardQuote[] =>
    names.map((n, i) => ({
      appId,
      badgeType,
      marketHashName: name(n),
      lowestPrice: quotes[i]?.lowestPrice ?? null,
      buyPrice: quotes[i]?.medianPrice ?? null,
      volume: quotes[i]?.volume ?? 0,
    }));
  // A name listed twice (a lower-bound set read from inventories) is one card: one upsert may not touch a row twice.
  const seen = new Set<string>();
  const unique = (card: CardQuote) => !seen.has(`${card.badgeType}:${card.marketHashName}`) && !!seen.add(`${card.badgeType}:${card.marketHashName}`);
  return {
    sets: [setPriceOf(appId, 'normal', normal), setPriceOf(appId, 'foil', foil)],
    cards: [...cards('normal', normal, (n) => n), ...cards('foil', foil, foilNameOf)].filter(unique),
  };
}

/** Every card's quote, read at $7; a re-read rewrites the quote and its time (the age answers show). */
const UPSERT_CARDS = `
  INSERT INTO card_market_prices AS c (app_id, badge_type, market_hash_name, lowest_price, buy_price, volume, updated_at)
  SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::timestamptz[])
  ON CONFLICT (app_id, badge_type, market_hash_name) DO UPDATE
     SET lowest_price = EXCLUDED.lowest_price, buy_price = EXCLUDED.buy_price, volume = EXCLUDED.volume,
         updated_at = EXCLUDED.updated_at`;

/** The cards of the app not read at $2: no longer in its set (the platform's set changed), so no longer priced. */
const DELETE_GONE = 'DELETE FROM card_market_prices WHERE app_id = $1 AND updated_at <> $2';

/**
 * Stores an app's card quotes read at `at` and removes its cards that are no longer in the set; in the caller's
 * transaction (the one that stores the set figures), through the primary key's `app_id` prefix.
 */
export async function storeCardQuotes(manager: EntityManager, appId: number, cards: CardQuote[], at: Date): Promise<void> {
  if (cards.length) {
    const column = <K extends keyof CardQuote>(key: K) => cards.map((card) => card[key]);
    await manager.query(UPSERT_CARDS, [
      column('appId'),
      column('badgeType'),
      column('marketHashName'),
      column('lowestPrice'),
      column('buyPrice'),
      column('volume'),
      cards.map(() => at),
    ]);
  }
  await manager.query(DELETE_GONE, [appId, at]);
}
