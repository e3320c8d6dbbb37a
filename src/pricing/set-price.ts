import type { MarketPrice } from '../platform/client/platform.types';
import type { BadgeType } from './entities/app-market-price.entity';

/** The figures kept per app and badge type (`app_market_prices`), all integers, prices in USD cents. */
export interface SetPrice {
  appId: number;
  badgeType: BadgeType;
  cards: number;
  unlistedCards: number;
  unmarketableCards: number;
  averageVolume: number;
  cardAveragePrice: number;
  setPrice: number;
  buyOrderAveragePrice: number;
  setBuyOrderPrice: number;
}

/**
 * One set's figures from its cards' market quotes (null: the market does not trade the card).
 *
 * The market price call answers the lowest sell listing, the median sale price and the sales volume of the last
 * 24 hours, and nothing of the order book. So:
 * - `setPrice` sums the lowest listings (what buying the set costs now) and `cardAveragePrice` is their mean; a
 *   card without a listing adds nothing and counts in `unlistedCards` (the badge's `noListing`);
 * - the buy-order side is the median sale price: a card sells at once by filling a buy order, so recent sales are
 *   the nearest the call gets to what buyers pay; `setBuyOrderPrice` sums it over the cards that sold,
 *   `buyOrderAveragePrice` is its mean;
 * - `averageVolume` (the tick's `averageListings`) is the mean daily volume per card: the call reports no
 *   listing count, and volume is what says how liquid a set is.
 */
export function setPriceOf(appId: number, badgeType: BadgeType, quotes: (MarketPrice | null)[]): SetPrice {
  const listed = quotes.flatMap((q) => (q?.lowestPrice != null ? [q.lowestPrice] : []));
  const sold = quotes.flatMap((q) => (q?.medianPrice != null ? [q.medianPrice] : []));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const mean = (values: number[]) => (values.length ? Math.round(sum(values) / values.length) : 0);
  return {
    appId,
    badgeType,
    cards: quotes.length,
    unlistedCards: quotes.length - listed.length,
    unmarketableCards: quotes.filter((q) => q === null).length,
    averageVolume: mean(quotes.map((q) => q?.volume ?? 0)),
    cardAveragePrice: mean(listed),
    setPrice: sum(listed),
    buyOrderAveragePrice: mean(sold),
    setBuyOrderPrice: sum(sold),
  };
}
