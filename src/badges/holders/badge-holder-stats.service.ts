import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DerivedState, DerivedStateKeeper } from '../../derived/derived-state';
import { HoldingsDiff } from './holdings-diff';

/** The aggregates of `badge_holder_stats`, as a full recomputation derives them from `account_badges`. */
export const RECOMPUTE_HOLDER_STATS = `
  SELECT badge_id, count(*)::int AS holders, max(level) AS highest_level, min(completion_time) AS first_completion,
         max(completion_time) AS last_completion
    FROM account_badges GROUP BY badge_id`;

/**
 * Per-badge holder statistics (holders, highest level, first and last completion), maintained from the diff of
 * each update's badges inside the writer's transaction.
 *
 * Counts and new extremes are folded in with one upsert (which also locks the badges' rows, in badge order, so
 * concurrent writers cannot deadlock). An extreme a lost or lowered holding may have been is then recomputed
 * through the holder indexes, in a second statement: under READ COMMITTED it reads a snapshot taken after the
 * rows were locked, so it sees every writer that touched the same badges before.
 */
@Injectable()
@DerivedState('badge-holder-stats')
export class BadgeHolderStats implements DerivedStateKeeper {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async apply(manager: EntityManager, diff: HoldingsDiff): Promise<void> {
    const moved = diff.changed.filter(
      ({ before, after }) => before.level !== after.level || +before.completionTime !== +after.completionTime,
    );
    const rows = [
      ...diff.added.map((h) => ({ badgeId: h.badgeId, holders: 1, level: h.level, time: h.completionTime as Date | null })),
      ...moved.map(({ after: h }) => ({ badgeId: h.badgeId, holders: 0, level: h.level, time: h.completionTime as Date | null })),
      ...diff.removed.map((h) => ({ badgeId: h.badgeId, holders: -1, level: 0, time: null })),
    ].sort((a, b) => a.badgeId - b.badgeId);
    if (!rows.length) return;
    // GREATEST and LEAST skip NULLs: a removal only changes the count here.
    await manager.query(
      `INSERT INTO badge_holder_stats AS s (badge_id, holders, highest_level, first_completion, last_completion)
       SELECT id, holders, level, time, time FROM unnest($1::int[], $2::int[], $3::int[], $4::timestamptz[]) AS d(id, holders, level, time)
        ORDER BY id
       ON CONFLICT (badge_id) DO UPDATE SET
         holders = s.holders + EXCLUDED.holders,
         highest_level = GREATEST(s.highest_level, EXCLUDED.highest_level),
         first_completion = LEAST(s.first_completion, EXCLUDED.first_completion),
         last_completion = GREATEST(s.last_completion, EXCLUDED.last_completion)`,
      [rows.map((r) => r.badgeId), rows.map((r) => r.holders), rows.map((r) => r.level), rows.map((r) => r.time)],
    );
    const stale = [...moved.map(({ before }) => before), ...diff.removed];
    if (!stale.length) return;
    // Only an old value that was the extreme can leave it stale; each recomputation is one probe of an index.
    await manager.query(
      `UPDATE badge_holder_stats s SET
         highest_level = CASE WHEN d.level >= s.highest_level
           THEN COALESCE((SELECT max(ab.level) FROM account_badges ab WHERE ab.badge_id = s.badge_id), 0) ELSE s.highest_level END,
         first_completion = CASE WHEN d.time <= s.first_completion
           THEN (SELECT min(ab.completion_time) FROM account_badges ab WHERE ab.badge_id = s.badge_id) ELSE s.first_completion END,
         last_completion = CASE WHEN d.time >= s.last_completion
           THEN (SELECT max(ab.completion_time) FROM account_badges ab WHERE ab.badge_id = s.badge_id) ELSE s.last_completion END
         FROM unnest($1::int[], $2::int[], $3::timestamptz[]) AS d(badge_id, level, time)
        WHERE s.badge_id = d.badge_id
          AND (d.level >= s.highest_level OR d.time <= s.first_completion OR d.time >= s.last_completion)`,
      [stale.map((h) => h.badgeId), stale.map((h) => h.level), stale.map((h) => h.completionTime)],
    );
  }

  /** Recomputes every badge's statistics from `account_badges` (see PlatformTotals.rebuild for the locking). */
  async rebuild(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE badge_holder_stats IN EXCLUSIVE MODE');
      await manager.query('DELETE FROM badge_holder_stats');
      await manager.query(
        `INSERT INTO badge_holder_stats (badge_id, holders, highest_level, first_completion, last_completion) ${RECOMPUTE_HOLDER_STATS}`,
      );
    });
  }
}
