import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DerivedState, DerivedStateKeeper } from '../../derived/derived-state';

/** A normal card class of an app in an inventory (`inventory_items` rows of kind `card`). */
export interface CardClass {
  appId: number;
  classId: string;
}

export const RECOMPUTE_CARD_CLASSES = `
  SELECT app_id, class_id, count(*)::int AS owners FROM inventory_items
   WHERE kind = 'card' AND app_id IS NOT NULL GROUP BY app_id, class_id`;

const keyOf = (card: CardClass) => `${card.appId}\u0000${card.classId}`;

/**
 * The normal card classes seen per app, with how many inventories hold each (an app's `cardCount` is the number
 * of classes held), maintained from the diff of each update's inventory inside the writer's transaction.
 */
@Injectable()
@DerivedState('app-card-classes')
export class AppCardClasses implements DerivedStateKeeper {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Counts the classes an inventory gained and lost (each list distinct per class). */
  async apply(manager: EntityManager, before: CardClass[], after: CardClass[]): Promise<void> {
    const counts = new Map<string, CardClass & { owners: number }>();
    for (const [list, step] of [
      [before, -1],
      [after, 1],
    ] as const) {
      for (const card of list) {
        const entry = counts.get(keyOf(card)) ?? { ...card, owners: 0 };
        entry.owners += step;
        counts.set(keyOf(card), entry);
      }
    }
    // Rows are locked in key order, so concurrent writers cannot deadlock.
    const rows = [...counts.values()]
      .filter((row) => row.owners !== 0)
      .sort((a, b) => a.appId - b.appId || (a.classId < b.classId ? -1 : a.classId > b.classId ? 1 : 0));
    if (!rows.length) return;
    await manager.query(
      `INSERT INTO app_card_classes AS c (app_id, class_id, owners)
       SELECT * FROM unnest($1::int[], $2::text[], $3::int[]) AS d(app_id, class_id, owners) ORDER BY app_id, class_id COLLATE "C"
       ON CONFLICT (app_id, class_id) DO UPDATE SET owners = c.owners + EXCLUDED.owners`,
      [rows.map((r) => r.appId), rows.map((r) => r.classId), rows.map((r) => r.owners)],
    );
  }

  /** Recomputes the classes from `inventory_items` (see PlatformTotals.rebuild for the locking). */
  async rebuild(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE app_card_classes IN EXCLUSIVE MODE');
      await manager.query('DELETE FROM app_card_classes');
      await manager.query(`INSERT INTO app_card_classes (app_id, class_id, owners) ${RECOMPUTE_CARD_CLASSES}`);
    });
  }
}
