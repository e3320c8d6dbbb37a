import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CatalogueChange } from '../../change-feed/change-entry';
import { ChangeFeed } from '../../change-feed/change-feed';
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
 * The normal card classes seen per app, with how many inventories hold each, and per app the number of classes
 * held (`app_card_counts`, a badge's `cardCount`), maintained from the diff of each update's inventory inside the
 * writer's transaction.
 */
@Injectable()
@DerivedState('app-card-classes')
export class AppCardClasses implements DerivedStateKeeper {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly feed: ChangeFeed,
  ) {}

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
    // One statement: the classes' new owner counts come back from the upsert (each row's new count minus this
    // update's delta is its count before, read under the row's lock, so concurrent writers add up), and each app's
    // count of classes with owners moves by the classes that crossed zero. Every writer locks its class rows before
    // its apps' count rows, both in key order, so no two writers wait on each other in a cycle. It answers the apps
    // of an unread set (no `cards`, no names) whose classes left or reached zero: those a plan counts as unknown sets,
    // or no longer does (CardSetBook), recorded in the change feed with the update.
    const moved: { app_id: number }[] = await manager.query(
      `WITH delta AS (
         SELECT * FROM unnest($1::int[], $2::text[], $3::int[]) AS d(app_id, class_id, owners)
       ), counted AS (
         INSERT INTO app_card_classes AS c (app_id, class_id, owners)
         SELECT * FROM delta ORDER BY app_id, class_id COLLATE "C"
         ON CONFLICT (app_id, class_id) DO UPDATE SET owners = c.owners + EXCLUDED.owners
         RETURNING c.app_id, c.class_id, c.owners
       ), crossed AS (
         SELECT n.app_id, sum(CASE WHEN n.owners > 0 AND n.owners - d.owners <= 0 THEN 1
                                   WHEN n.owners <= 0 AND n.owners - d.owners > 0 THEN -1 ELSE 0 END)::int AS classes
           FROM counted n JOIN delta d USING (app_id, class_id) GROUP BY n.app_id
       ), counts AS (
         INSERT INTO app_card_counts AS k (app_id, classes)
         SELECT app_id, classes FROM crossed WHERE classes <> 0 ORDER BY app_id
         ON CONFLICT (app_id) DO UPDATE SET classes = k.classes + EXCLUDED.classes
         RETURNING k.app_id, k.classes, k.cards IS NULL AND k.card_names IS NULL AS unread
       )
       SELECT n.app_id FROM counts n JOIN crossed x USING (app_id) WHERE n.unread AND (n.classes > 0) <> (n.classes - x.classes > 0)`,
      [rows.map((r) => r.appId), rows.map((r) => r.classId), rows.map((r) => r.owners)],
    );
    if (moved.length) {
      const change: CatalogueChange = { appIds: moved.map((row) => row.app_id) };
      await this.feed.record(manager, { kind: 'card-sets', payload: { ...change } });
    }
  }

  /** Recomputes the classes and their counts from `inventory_items` (see PlatformTotals.rebuild for the locking). */
  async rebuild(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE app_card_classes, app_card_counts IN EXCLUSIVE MODE');
      await manager.query('DELETE FROM app_card_classes');
      // The platform's sets (cards, names) are not derived from the rows: kept, only the held classes are recounted.
      await manager.query('UPDATE app_card_counts SET classes = 0 WHERE classes <> 0');
      await manager.query(`INSERT INTO app_card_classes (app_id, class_id, owners) ${RECOMPUTE_CARD_CLASSES}`);
      await manager.query(
        `INSERT INTO app_card_counts AS k (app_id, classes)
         SELECT app_id, count(*) FROM app_card_classes WHERE owners > 0 GROUP BY app_id
         ON CONFLICT (app_id) DO UPDATE SET classes = EXCLUDED.classes`,
      );
      // Any unread set may have turned plannable or not: the planners read every set again.
      await this.feed.record(manager, { kind: 'card-sets' });
    });
    await this.feed.nudge();
  }
}
