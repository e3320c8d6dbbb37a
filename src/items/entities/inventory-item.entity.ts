import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { AccountOwnedEntity } from '../../account-records/entities/account-owned';

export const ITEM_KINDS = ['card', 'foil_card', 'booster', 'other'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** One kind of community item (a class id) in an account's inventory, with how many copies it holds. */
@Entity('inventory_items')
// The owners of a class by copies held, and among equal amounts by account: item.findOwners walks it a level (one
// amount) at a time, so a page never sorts a large group of owners holding the same amount.
@Index('ix_inventory_items_class_id', ['classId', 'amount', 'accountId'])
@Index('ix_inventory_items_app_kind', ['appId', 'kind', 'classId'])
export class InventoryItemEntity extends AccountOwnedEntity {
  /** The platform's item class id; 64-bit, kept as a decimal string. */
  @PrimaryColumn('text')
  classId: string;

  /** The game the item belongs to (`market_fee_app`), or null for items of no game. */
  @Column('integer', { nullable: true })
  appId: number | null;

  @Column('text')
  kind: ItemKind;

  @Column('text')
  name: string;

  @Column('text')
  marketHashName: string;

  @Column('integer')
  amount: number;

  /** One of the account's assets of this class, for deep links. */
  @Column('text')
  assetId: string;
}
