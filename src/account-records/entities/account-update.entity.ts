import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

export const UPDATE_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type UpdateStatus = (typeof UPDATE_STATUSES)[number];

export interface UpdateStepRecord {
  name: string;
  status: 'pending' | 'running' | 'done' | 'skipped' | 'failed';
  startedAt?: string;
  finishedAt?: string;
}

/** The profile counters an update changes; `before` and `after` of each run feed history, activity and leaderboards. */
export type CounterSnapshot = Record<string, number | string | boolean | null>;

/** One update run of an account, from queueing to its end, with the values it changed. */
@Entity('account_updates')
@Index('ix_account_updates_account_queued', ['accountId', 'queuedAt'])
// leaderboard.getChanges: an account's completed runs in a window (and whether one came before), and the runs that
// finished in a range of time (the sweeper sliding the windows). Only completed runs count, so only they are indexed.
@Index('ix_account_updates_account_completed', ['accountId', 'finishedAt'], { where: "status = 'completed'" })
@Index('ix_account_updates_completed', ['finishedAt'], { where: "status = 'completed'" })
export class AccountUpdateEntity {
  /** The run id (`runId` on the wire). */
  @PrimaryColumn('uuid')
  runId: string;

  @Column('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text')
  status: UpdateStatus;

  @Column('timestamptz')
  queuedAt: Date;

  @Column('timestamptz', { nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { nullable: true })
  finishedAt: Date | null;

  @Column('integer', { default: 0 })
  attempts: number;

  @Column('jsonb', { default: () => "'[]'" })
  steps: UpdateStepRecord[];

  @Column('jsonb', { nullable: true })
  error: { category: string; retryable: boolean } | null;

  @Column('jsonb', { nullable: true })
  before: CounterSnapshot | null;

  @Column('jsonb', { nullable: true })
  after: CounterSnapshot | null;
}
