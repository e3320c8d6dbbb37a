import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BadgeType } from './app-market-price.entity';

/**
 * One trading card's market quote as the pricing job last read it (prices in USD cents): what the crafting planner,
 * the cheapest-badge listing and the drops' worth price card by card, where `app_market_prices` keeps only the
 * set's figures. A card is its market hash name (`"{appId}-{Card Name}"`, foil ones with " (Foil)"), which is also
 * how inventory items name it (`inventory_items.market_hash_name`).
 */
@Entity('card_market_prices')
export class CardMarketPriceEntity {
  @PrimaryColumn('integer')
  appId: number;

  @PrimaryColumn('text')
  badgeType: BadgeType;

  @PrimaryColumn('text')
  marketHashName: string;

  /** The lowest sell listing: what buying the card costs now; null when nobody lists it (or it is not traded). */
  @Column('integer', { nullable: true })
  lowestPrice: number | null;

  /**
   * What a seller gets at once: the median sale of the last 24 hours, the nearest the market's price call comes to
   * the highest buy order (it reports nothing of the order book); null when the card did not sell.
   */
  @Column('integer', { nullable: true })
  buyPrice: number | null;

  /** Sales in the last 24 hours (0 when none). */
  @Column('integer')
  volume: number;

  /** When this quote was read. */
  @Column('timestamptz')
  updatedAt: Date;
}
