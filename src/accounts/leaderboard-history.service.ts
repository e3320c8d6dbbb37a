import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import { V1AccountListLeaderboardHistoryResponseBody } from './dto/leaderboard-history.dto';

/** How far back `account.listLeaderboardHistory` reaches: a year of daily points per board at most. */
export const HISTORY_DAYS = 365;

/** `account.listLeaderboardHistory`: the daily rank/score points the update worker kept (RankHistoryRecorder). */
@Injectable()
export class LeaderboardHistoryService {
  constructor(
    private readonly lookup: AccountLookupService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(selector: AccountSelector): Promise<V1AccountListLeaderboardHistoryResponseBody> {
    const { accountId } = await this.lookup.findTracked(selector);
    const rows: { day: string; leaderboard: string; rank: number; score: string }[] = await this.dataSource.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, leaderboard, rank, score FROM account_rank_history
        WHERE account_id = $1 AND day >= current_date - $2::int ORDER BY day, leaderboard`,
      [accountId, HISTORY_DAYS],
    );
    return {
      histories: rows.map((row) => ({
        date: `${row.day}T00:00:00.000Z`,
        leaderboard: row.leaderboard,
        rank: row.rank,
        score: Number(row.score),
      })),
    };
  }
}
