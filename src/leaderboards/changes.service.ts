import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { COLUMN_BOARDS, RANKED, SNAPSHOT_COUNTERS } from './account-boards';
import { LeaderboardGetChangesRequestBody as Request, LeaderboardGetChangesResponseBody } from './dto/changes.dto';

const WINDOW_DAYS = { '24h': 1, '7d': 7, '30d': 30, '90d': 90, '1y': 365 } as const;

interface ChangeRow {
  account_id: number;
  old_rank: string;
  new_rank: string;
  old_score: string;
  new_score: string;
  latest: Date;
}

/**
 * `leaderboard.getChanges`: movers over a window. An account's old score is the value its first update in the
 * window found before it ran (an account's very first update has no "before" and is not a change); ranks are
 * the board's order on the old scores and on the current ones.
 */
@Injectable()
export class ChangesService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async changes(request: Request): Promise<LeaderboardGetChangesResponseBody> {
    const column = `a.${COLUMN_BOARDS[request.leaderboard]}`;
    const counter = SNAPSHOT_COUNTERS[request.leaderboard];
    // Boards whose value no update records (awards, points) cannot have moved.
    if (!counter) return { changes: [] };
    const since = new Date(Date.now() - WINDOW_DAYS[request.window] * 86_400_000);
    const top = request.topFilter && request.topFilter !== 'all' ? Number(request.topFilter) : null;
    const delta = request.metric === 'score' ? 'new_score - old_score' : 'old_rank - new_rank';
    const wanted = request.direction === 'improvements' ? `${delta} > 0` : `${delta} < 0`;
    const rows: ChangeRow[] = await this.dataSource.query(
      `WITH firsts AS (
         SELECT DISTINCT ON (u.account_id) u.account_id, (u.before ->> $1)::bigint AS old_score
           FROM account_updates u
          WHERE u.status = 'completed' AND u.finished_at >= $2
            AND EXISTS (SELECT 1 FROM account_updates p WHERE p.account_id = u.account_id AND p.status = 'completed' AND p.finished_at < u.finished_at)
          ORDER BY u.account_id, u.finished_at),
       latest AS (
         SELECT account_id, max(finished_at) AS latest FROM account_updates WHERE status = 'completed' AND finished_at >= $2 GROUP BY account_id),
       board AS (
         SELECT a.account_id, ${column}::bigint AS new_score, COALESCE(f.old_score, ${column})::bigint AS old_score,
                f.account_id IS NOT NULL AS moved, l.latest
           FROM accounts a LEFT JOIN firsts f ON f.account_id = a.account_id LEFT JOIN latest l ON l.account_id = a.account_id
          WHERE ${RANKED}),
       ranked AS (
         SELECT *, row_number() OVER (ORDER BY new_score DESC, account_id) AS new_rank,
                   row_number() OVER (ORDER BY old_score DESC, account_id) AS old_rank
           FROM board)
       SELECT account_id, old_rank, new_rank, old_score, new_score, latest FROM ranked
        WHERE moved AND ${wanted} AND ($3::int IS NULL OR new_rank <= $3 OR old_rank <= $3)
        ORDER BY abs(${delta}) DESC, account_id
        LIMIT $4 OFFSET $5`,
      [counter, since, top, request.limit ?? 100, request.offset ?? 0],
    );
    const cards = await this.accounts.byIds(rows.map((row) => row.account_id));
    return {
      changes: rows.map((row) => {
        const [oldRank, newRank, oldScore, newScore] = [row.old_rank, row.new_rank, row.old_score, row.new_score].map(Number);
        return {
          accountId: row.account_id,
          oldRank,
          newRank,
          rankDelta: oldRank - newRank,
          oldScore,
          newScore,
          scoreDelta: newScore - oldScore,
          latestDate: row.latest.toISOString(),
          account: cards.get(row.account_id) ?? null,
        };
      }),
    };
  }
}
