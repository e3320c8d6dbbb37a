import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AccountRankReader, HISTORY_BOARDS } from './account-rank-reader.service';
import { enteredBucket, rankCounts } from './populated-boards';

/** A top-N bucket an account entered on a board's global scope at a refresh (a `rank_milestone` event's facts). */
export interface RankMilestone {
  leaderboard: string;
  /** 10, 100 or 1000 (populated-boards.ts, RANK_MILESTONES). */
  top: number;
  /** The global rank at the account's previous refresh; 0: unranked then (a zero value). */
  previous: number;
  current: number;
}

/**
 * Keeps what the rank engine alone cannot answer later: a daily point per board (global rank and score) and the
 * best rank ever held per scope, with the scope's total then. Runs after each refresh of an account, right after its
 * ranks moved, and tells the caller which top-N buckets the account entered since its previous refresh (the previous
 * point of its history; none on a first refresh: that one only sets the baseline). Best ranks and milestones count
 * only on populated boards (populated-boards.ts).
 */
@Injectable()
export class RankHistoryRecorder {
  constructor(
    private readonly ranks: AccountRankReader,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async record(accountId: number, at = new Date()): Promise<RankMilestone[]> {
    const current = await this.ranks.accountRanks(accountId);
    if (!current) return [];
    const min = this.config.populatedBoardMinAccounts;
    const day = at.toISOString().slice(0, 10);
    const history = [...current].filter(([board]) => HISTORY_BOARDS.includes(board));
    // The previous point per board (one range of the history's primary key), read before today's replaces it.
    const previous: { leaderboard: string; rank: number }[] = await this.dataSource.query(
      `SELECT DISTINCT ON (leaderboard) leaderboard, rank FROM account_rank_history
        WHERE account_id = $1 ORDER BY leaderboard, day DESC`,
      [accountId],
    );
    const before = new Map(previous.map((row) => [row.leaderboard, Number(row.rank)]));
    const milestones: RankMilestone[] = [];
    for (const [board, r] of history) {
      const was = before.get(board);
      if (was === undefined) continue;
      const top = enteredBucket(was, r.ranks[0], r.totals[0], min);
      if (top !== null) milestones.push({ leaderboard: board, top, previous: was, current: r.ranks[0] });
    }
    await this.dataSource.query(
      `INSERT INTO account_rank_history (account_id, leaderboard, day, rank, score)
       SELECT $1, * FROM unnest($2::text[], $3::date[], $4::int[], $5::bigint[])
       ON CONFLICT (account_id, leaderboard, day) DO UPDATE SET rank = EXCLUDED.rank, score = EXCLUDED.score`,
      [
        accountId,
        history.map(([board]) => board),
        history.map(() => day),
        history.map(([, r]) => r.ranks[0]),
        history.map(([, r]) => r.score),
      ],
    );
    const boards = [...current.keys()];
    // Per scope, the rank and its scope's total where the rank counts, else 0 and 0 (never better than a kept one).
    const counted = boards.map((board) => {
      const { ranks, totals } = current.get(board)!;
      const keep = ranks.map((rank, level) => rankCounts(rank, totals[level], min));
      return {
        ranks: ranks.map((rank, level) => (keep[level] ? rank : 0)),
        totals: totals.map((total, level) => (keep[level] ? total : 0)),
      };
    });
    // Element-wise: the new rank where it is better (lower, and not 0), else the kept one if it still counts (a row
    // kept before totals were recorded has none, and is dropped: it may have been reached on an empty board).
    await this.dataSource.query(
      `INSERT INTO account_best_ranks (account_id, leaderboard, ranks, totals)
       SELECT $1, b, string_to_array(r, ',')::int[], string_to_array(t, ',')::int[] FROM unnest($2::text[], $3::text[], $4::text[]) AS x(b, r, t)
       ON CONFLICT (account_id, leaderboard) DO UPDATE SET (ranks, totals) = (
         SELECT array_agg(CASE WHEN n > 0 AND (ko = 0 OR n < ko) THEN n ELSE ko END ORDER BY i),
                array_agg(CASE WHEN n > 0 AND (ko = 0 OR n < ko) THEN nt ELSE kt END ORDER BY i)
           FROM (SELECT i, COALESCE(n, 0) AS n, COALESCE(nt, 0) AS nt,
                        CASE WHEN COALESCE(ot, 0) >= $5 THEN COALESCE(o, 0) ELSE 0 END AS ko,
                        CASE WHEN COALESCE(ot, 0) >= $5 THEN ot ELSE 0 END AS kt
                   FROM unnest(account_best_ranks.ranks, EXCLUDED.ranks, account_best_ranks.totals, EXCLUDED.totals)
                        WITH ORDINALITY AS y(o, n, ot, nt, i)) z)`,
      [accountId, boards, counted.map((c) => c.ranks.join(',')), counted.map((c) => c.totals.join(',')), min],
    );
    return milestones;
  }
}
