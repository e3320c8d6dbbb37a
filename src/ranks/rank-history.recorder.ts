import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountRankReader, HISTORY_BOARDS } from './account-rank-reader.service';

/**
 * Keeps what the rank engine alone cannot answer later: a daily point per board (global rank and score) and the
 * best rank ever held per scope. Runs after each refresh of an account, right after its ranks moved.
 */
@Injectable()
export class RankHistoryRecorder {
  constructor(
    private readonly ranks: AccountRankReader,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async record(accountId: number, at = new Date()): Promise<void> {
    const current = await this.ranks.accountRanks(accountId);
    if (!current) return;
    const day = at.toISOString().slice(0, 10);
    const history = [...current].filter(([board]) => HISTORY_BOARDS.includes(board));
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
    // Element-wise minimum, where 0 means "not ranked in that scope" and never wins.
    await this.dataSource.query(
      `INSERT INTO account_best_ranks (account_id, leaderboard, ranks)
       SELECT $1, b, string_to_array(r, ',')::int[] FROM unnest($2::text[], $3::text[]) AS t(b, r)
       ON CONFLICT (account_id, leaderboard) DO UPDATE SET ranks = ARRAY(
         SELECT CASE WHEN o = 0 THEN n WHEN n = 0 THEN o ELSE least(o, n) END
           FROM unnest(account_best_ranks.ranks, EXCLUDED.ranks) AS x(o, n))`,
      [accountId, boards, boards.map((board) => current.get(board)!.ranks.join(','))],
    );
  }
}
