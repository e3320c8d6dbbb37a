import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The best rank an account has held on a board in each scope (global, region, country, state, city; 0 where it
 * never ranked), kept as the element-wise minimum of the ranks seen after its refreshes (`currentBestRanks`), with
 * the scope's total when it was reached. Only ranks on populated boards count (ranks/populated-boards.ts).
 */
@Entity('account_best_ranks')
export class AccountBestRankEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @PrimaryColumn('text')
  leaderboard: string;

  @Column('integer', { array: true })
  ranks: number[];

  /** Per scope, the tracked accounts there when the best rank was reached (0 where none counts). */
  @Column('integer', { array: true, default: () => "'{}'" })
  totals: number[];
}
