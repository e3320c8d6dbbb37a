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
  const unique = (card: CardQuote) =>
    !seen.has(`${card.badgeType}:${card.marketHashName}`) && !!seen.add(`${card.badgeType}:${card.marketHashName}`);
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

/** Insert or update a set's figures; rows whose figures did not change are left alone and not returned. */
const UPSERT_SETS = `
  INSERT INTO app_market_prices AS p (app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume,
                                      card_average_price, set_price, buy_order_average_price, set_buy_order_price, updated_at)
  SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[],
                       $10::int[], $11::timestamptz[])
  ON CONFLICT (app_id, badge_type) DO UPDATE
     SET cards = EXCLUDED.cards, unlisted_cards = EXCLUDED.unlisted_cards, unmarketable_cards = EXCLUDED.unmarketable_cards,
         average_volume = EXCLUDED.average_volume, card_average_price = EXCLUDED.card_average_price,
         set_price = EXCLUDED.set_price, buy_order_average_price = EXCLUDED.buy_order_average_price,
         set_buy_order_price = EXCLUDED.set_buy_order_price, updated_at = EXCLUDED.updated_at
   WHERE (p.cards, p.unlisted_cards, p.unmarketable_cards, p.average_volume, p.card_average_price, p.set_price,
          p.buy_order_average_price, p.set_buy_order_price)
         IS DISTINCT FROM
         (EXCLUDED.cards, EXCLUDED.unlisted_cards, EXCLUDED.unmarketable_cards, EXCLUDED.average_volume,
          EXCLUDED.card_average_price, EXCLUDED.set_price, EXCLUDED.buy_order_average_price, EXCLUDED.set_buy_order_price)
  RETURNING badge_type`;

/** A query in the caller's transaction (TypeORM's manager, or the seed's pg client). */
export type Query = (sql: string, parameters: unknown[]) => Promise<unknown[]>;

/**
 * Stores an app's set figures and card quotes read at `at`, and removes its cards that are no longer in the set
 * (through the primary key's `app_id` prefix); in the caller's transaction. Returns the sets whose figures changed.
 * The pricing job (AppPricer.store) and the seed (seed-prices.ts) both store through here.
 */
export async function storeAppQuotes(query: Query, appId: number, quotes: AppQuotes, at: Date): Promise<SetPrice[]> {
  const prices = quotes.sets;
  const setColumn = <K extends keyof SetPrice>(key: K) => prices.map((price) => price[key]);
  const changed = (await query(UPSERT_SETS, [
    setColumn('appId'),
    setColumn('badgeType'),
    setColumn('cards'),
    setColumn('unlistedCards'),
    setColumn('unmarketableCards'),
    setColumn('averageVolume'),
    setColumn('cardAveragePrice'),
    setColumn('setPrice'),
    setColumn('buyOrderAveragePrice'),
    setColumn('setBuyOrderPrice'),
    prices.map(() => at),
  ])) as { badge_type: string }[];
  const { cards } = quotes;
  if (cards.length) {
    const column = <K extends keyof CardQuote>(key: K) => cards.map((card) => card[key]);
    await query(UPSERT_CARDS, [
      column('appId'),
      column('badgeType'),
      column('marketHashName'),
      column('lowestPrice'),
      column('buyPrice'),
      column('volume'),
      cards.map(() => at),
    ]);
  }
  await query(DELETE_GONE, [appId, at]);
  const types = new Set(changed.map((row) => row.badge_type));
  return prices.filter((price) => types.has(price.badgeType));
}
