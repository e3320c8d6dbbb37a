import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DerivedState, DerivedStateKeeper } from '../../derived/derived-state';

/** The owner counts as a full recomputation derives them from `account_apps` (one row per account and app). */
export const RECOMPUTE_APP_OWNERS = 'SELECT app_id, count(*)::int AS owners FROM account_apps GROUP BY app_id';

/**
 * Per app, how many libraries hold it, maintained from the diff of each update's library inside the writer's
 * transaction: only apps a library gained or lost are written, so a popular app's row is not touched by every update.
 */
@Injectable()
@DerivedState('app-owner-counts')
export class AppOwnerCounts implements DerivedStateKeeper {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Counts the apps a library gained and lost (`before` and `after` each list an app once). */
  async apply(manager: EntityManager, before: number[], after: number[]): Promise<void> {
    const had = new Set(before);
    const has = new Set(after);
    const changes = [
      ...[...has].filter((id) => !had.has(id)).map((id) => [id, 1]),
      ...[...had].filter((id) => !has.has(id)).map((id) => [id, -1]),
    ];
    if (!changes.length) return;
    // Rows are locked in key order, so concurrent writers cannot deadlock.
    changes.sort(([a], [b]) => a - b);
    await manager.query(
      `INSERT INTO app_owner_counts AS o (app_id, owners)
       SELECT * FROM unnest($1::int[], $2::int[]) AS d(app_id, owners) ORDER BY app_id
       ON CONFLICT (app_id) DO UPDATE SET owners = o.owners + EXCLUDED.owners`,
      [changes.map(([id]) => id), changes.map(([, step]) => step)],
    );
  }

  /** Recomputes every app's count from `account_apps` (see PlatformTotals.rebuild for the locking). */
  async rebuild(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE app_owner_counts IN EXCLUSIVE MODE');
      await manager.query('DELETE FROM app_owner_counts');
      await manager.query(`INSERT INTO app_owner_counts (app_id, owners) ${RECOMPUTE_APP_OWNERS}`);
    });
  }
}
