import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One day's point of an account on a board: its global rank and score when it was last refreshed that day
 * (`account.listLeaderboardHistory`). Written by the update worker from the rank engine, one row per board.
 */
@Entity('account_rank_history')
export class AccountRankHistoryEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @PrimaryColumn('text')
  leaderboard: string;

  @PrimaryColumn('date')
  day: string;

  @Column('integer')
  rank: number;

  @Column('bigint', { transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  score: number;
}
