import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const BADGE_TYPES = ['normal', 'foil'] as const;
export type BadgeType = (typeof BADGE_TYPES)[number];

/**
 * The market price of one app's card set, normal or foil (the cards a badge level consumes), as the pricing job
 * last read it. Prices are USD cents. See SetPrice (set-price.ts) for how each figure is derived.
 */
@Entity('app_market_prices')
// `badge.listCheapest`: the sets whose every card is listed, cheapest first (keyset paging, a price range as a range).
@Index('ix_app_market_prices_full_sets', ['badgeType', 'setPrice', 'appId'], { where: 'unlisted_cards = 0 AND cards > 0' })
export class AppMarketPriceEntity {
  @PrimaryColumn('integer')
  appId: number;

  @PrimaryColumn('text')
  badgeType: BadgeType;

  /** Cards in the set (the app's known card classes). */
  @Column('integer')
  cards: number;

  /** Cards with no sell listing now (unmarketable ones included): the badge's `noListing`. */
  @Column('integer')
  unlistedCards: number;

  /** Cards the market does not trade: the badge's `isNmc`. */
  @Column('integer')
  unmarketableCards: number;

  /** Mean 24-hour sales volume per card (the market call reports no listing count). */
  @Column('integer')
  averageVolume: number;

  @Column('integer')
  cardAveragePrice: number;

  /** Sum of the cards' lowest listings: what buying the set costs now. */
  @Column('integer')
  setPrice: number;

  @Column('integer')
  buyOrderAveragePrice: number;

  @Column('integer')
  setBuyOrderPrice: number;

  /** When these figures were read; unchanged re-reads leave it alone. */
  @Column('timestamptz')
  updatedAt: Date;
}
