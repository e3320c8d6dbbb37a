import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DerivedState, DerivedStateKeeper } from '../../derived/derived-state';

/** The owner counts as a full recomputation derives them from `inventory_items` (one row per account and class). */
export const RECOMPUTE_ITEM_CLASS_OWNERS = 'SELECT class_id, count(*)::int AS owners FROM inventory_items GROUP BY class_id';

/**
 * Per item class, how many inventories hold it (`item.findOwners`' `totalOwners`), maintained from the diff of each
 * update's inventory inside the writer's transaction. Only classes an inventory gained or lost are touched, so a
 * class almost everybody holds (gems) is written only when someone gains or loses it.
 */
@Injectable()
@DerivedState('item-class-owners')
export class ItemClassOwners implements DerivedStateKeeper {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Counts the classes an inventory gained and lost (`before` and `after` each list a class once). */
  async apply(manager: EntityManager, before: string[], after: string[]): Promise<void> {
    const had = new Set(before);
    const has = new Set(after);
    const changes = [
      ...[...has].filter((id) => !had.has(id)).map((id) => [id, 1] as const),
      ...[...had].filter((id) => !has.has(id)).map((id) => [id, -1] as const),
    ];
    if (!changes.length) return;
    // Rows are locked in key order (byte order, as the ORDER BY below), so concurrent writers cannot deadlock.
    changes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await manager.query(
      `INSERT INTO item_class_owners AS o (class_id, owners)
       SELECT * FROM unnest($1::text[], $2::int[]) AS d(class_id, owners) ORDER BY class_id COLLATE "C"
       ON CONFLICT (class_id) DO UPDATE SET owners = o.owners + EXCLUDED.owners`,
      [changes.map(([id]) => id), changes.map(([, step]) => step)],
    );
  }

  /** Recomputes every class's count from `inventory_items` (see PlatformTotals.rebuild for the locking). */
  async rebuild(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE item_class_owners IN EXCLUSIVE MODE');
      await manager.query('DELETE FROM item_class_owners');
      await manager.query(`INSERT INTO item_class_owners (class_id, owners) ${RECOMPUTE_ITEM_CLASS_OWNERS}`);
    });
  }
}
