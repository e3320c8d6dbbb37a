import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many tracked inventories hold an item class (any kind: cards, foils, boosters, gems), so `item.findOwners`
 * never counts the owners per request. Kept in step by the update writer (see ItemClassOwners); a class nobody holds
 * any more keeps its row with `owners = 0`.
 */
@Entity('item_class_owners')
export class ItemClassOwnersEntity {
  /** The platform's item class id (64-bit, as in `inventory_items`). */
  @PrimaryColumn('text')
  classId: string;

  @Column('integer', { default: 0 })
  owners: number;
}
