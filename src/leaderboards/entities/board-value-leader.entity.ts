import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The best refreshed account at each value of a bucketed board — `xp`: per level, the most xp; `apps`: per app
 * count — so `leaderboard.getBucketLeaders` reads one row per distinct value instead of scanning the accounts.
 * Kept in step by the update writer (see ValueLeaders). Hidden accounts are not excluded here; the reader skips
 * them.
 */
@Entity('board_value_leaders')
export class BoardValueLeaderEntity {
  @PrimaryColumn('text')
  board: string;

  @PrimaryColumn('integer')
  value: number;

  @Column('integer')
  accountId: number;

  /** The leader's score on the board (xp, or the app count). */
  @Column('integer')
  score: number;
}
