import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An app's trading-card set: its size as the platform's market lists it (`cards`, with the cards' market hash names,
 * read once per app and again every few weeks by the pricing worker: pricing/app-card-sets.service.ts), and how many of
 * its normal card classes have owners among tracked inventories (`classes`: `app_card_classes` rows with
 * `owners > 0`, kept in step by the same statement of the update writer, see AppCardClasses). A badge's `cardCount` is
 * `cards`, or `classes` until the platform was asked: one key look-up per badge instead of counting per badge row.
 */
@Entity('app_card_counts')
export class AppCardCountEntity {
  @PrimaryColumn('integer')
  appId: number;

  @Column('integer', { default: 0 })
  classes: number;

  /** Cards in the set as the platform lists them (null until read). */
  @Column('integer', { nullable: true })
  cards: number | null;

  /** The set's cards' market hash names, in the market's order (null until read): what the pricing job prices. */
  @Column('text', { array: true, nullable: true })
  cardNames: string[] | null;

  /** When the platform was last asked (null: never). */
  @Column('timestamptz', { nullable: true })
  cardsCheckedAt: Date | null;
}
