import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** What an account's history records: its platform name, its site vanity, its location (account-records/history). */
export const HISTORY_KINDS = ['name', 'vanity', 'location'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/**
 * One change of an account's name, vanity or location, appended in the transaction of the change (the worker's
 * update, account.updateSettings/updateVanity, admin.removeVanity). Read by `admin.getAccount` only.
 */
@Entity('account_history')
@Index('ix_account_history_account', ['accountId', 'kind', 'id'])
export class AccountHistoryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column('integer')
  accountId: number;

  @Column('text')
  kind: HistoryKind;

  /** The value before and after: a string for name and vanity, the location columns for a location. */
  @Column('jsonb', { nullable: true })
  old: unknown;

  @Column('jsonb', { nullable: true })
  new: unknown;

  @Column('timestamptz', { default: () => 'now()' })
  changedAt: Date;
}
