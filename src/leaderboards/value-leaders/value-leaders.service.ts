import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DerivedState, DerivedStateKeeper } from '../../derived/derived-state';

/** The bucketed boards: the account column a bucket is a range of, and the column the board ranks by. */
export const VALUE_BOARDS = {
  xp: { value: 'level', score: 'xp' },
  apps: { value: 'apps', score: 'apps' },
} as const;
export type ValueBoard = keyof typeof VALUE_BOARDS;

/** An account as the boards see it: null when it is not on them (never refreshed). */
export type BoardState = { level: number; xp: number; apps: number } | null;

/**
 * The best refreshed account with `value`, through the partial indexes on accounts (value, score, account_id):
 * the top score in one probe, then the lowest account id holding it in another.
 */
export function bestWithValueSql(board: ValueBoard, valueParameter: string): string {
  const { value, score } = VALUE_BOARDS[board];
  return `SELECT a.account_id, a.${score} AS score FROM accounts a
           WHERE a.${value} = ${valueParameter} AND a.updated_at IS NOT NULL
             AND a.${score} = (SELECT max(m.${score}) FROM accounts m WHERE m.${value} = ${valueParameter} AND m.updated_at IS NOT NULL)
           ORDER BY a.account_id LIMIT 1`;
}

interface LeaderRow {
  value: number;
  account_id: number;
  score: number;
}

/**
 * Per-value leaders of the bucketed boards, maintained by the update writer from the account's state before and
 * after, in its transaction. Rows are locked in (board, value) order — the value the account leaves with
 * `FOR UPDATE`, the value it reaches with an upsert that keeps the better of the two — and a leader that left or
 * dropped is recomputed in a later statement, whose snapshot (READ COMMITTED) sees every writer that held the
 * row before.
 */
@Injectable()
@DerivedState('board-value-leaders')
export class ValueLeaders implements DerivedStateKeeper {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async apply(manager: EntityManager, accountId: number, before: BoardState, after: BoardState): Promise<void> {
    for (const board of Object.keys(VALUE_BOARDS) as ValueBoard[]) {
      const { value, score } = VALUE_BOARDS[board];
      const old = before && { value: before[value], score: before[score] };
      const now = after && { value: after[value], score: after[score] };
      if (old?.value === now?.value && old?.score === now?.score) continue;
      const steps = [old && old.value !== now?.value ? { leave: old.value } : null, now ? { reach: now.value } : null]
        .filter((step): step is { leave: number } | { reach: number } => step !== null)
        .sort((a, b) => ('leave' in a ? a.leave : a.reach) - ('leave' in b ? b.leave : b.reach));
      const stale: number[] = [];
      for (const step of steps) {
        if ('leave' in step) {
          const [row]: LeaderRow[] = await manager.query(
            'SELECT value, account_id, score FROM board_value_leaders WHERE board = $1 AND value = $2 FOR UPDATE',
            [board, step.leave],
          );
          if (row?.account_id === accountId) stale.push(step.leave);
        } else {
          const [row]: LeaderRow[] = await manager.query(
            `INSERT INTO board_value_leaders AS l (board, value, account_id, score) VALUES ($1, $2, $3, $4)
             ON CONFLICT (board, value) DO UPDATE SET
               account_id = CASE WHEN EXCLUDED.score > l.score OR (EXCLUDED.score = l.score AND EXCLUDED.account_id < l.account_id)
                                   OR l.account_id = EXCLUDED.account_id THEN EXCLUDED.account_id ELSE l.account_id END,
               score = CASE WHEN EXCLUDED.score > l.score OR (EXCLUDED.score = l.score AND EXCLUDED.account_id < l.account_id)
                              OR l.account_id = EXCLUDED.account_id THEN EXCLUDED.score ELSE l.score END
             RETURNING value, account_id, score`,
            [board, step.reach, accountId, now!.score],
          );
          // The leader stayed at its value with a lower score: someone else may lead now.
          if (row.account_id === accountId && old?.value === step.reach && now!.score < old.score) stale.push(step.reach);
        }
      }
      for (const stalest of stale) await this.recompute(manager, board, stalest);
    }
  }

  private async recompute(manager: EntityManager, board: ValueBoard, value: number): Promise<void> {
    const [best]: { account_id: number; score: number }[] = await manager.query(bestWithValueSql(board, '$1'), [value]);
    if (best)
      await manager.query('UPDATE board_value_leaders SET account_id = $3, score = $4 WHERE board = $1 AND value = $2', [
        board,
        value,
        best.account_id,
        best.score,
      ]);
    else await manager.query('DELETE FROM board_value_leaders WHERE board = $1 AND value = $2', [board, value]);
  }

  /** Recomputes every board's leaders from the accounts (see PlatformTotals.rebuild for the locking). */
  async rebuild(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE board_value_leaders IN EXCLUSIVE MODE');
      await manager.query('DELETE FROM board_value_leaders');
      for (const [board, { value, score }] of Object.entries(VALUE_BOARDS)) {
        await manager.query(
          `INSERT INTO board_value_leaders (board, value, account_id, score)
           SELECT DISTINCT ON (${value}) $1::text, ${value}, account_id, ${score} FROM accounts
            WHERE updated_at IS NOT NULL ORDER BY ${value}, ${score} DESC, account_id`,
          [board],
        );
      }
    });
  }
}
