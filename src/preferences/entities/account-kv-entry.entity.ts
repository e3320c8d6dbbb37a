import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** One of the web app's per-account preferences (kv.set): an opaque string under a namespace and a key. */
@Entity('account_kv_entries')
export class AccountKvEntryEntity {
  @PrimaryColumn('integer')
  accountId: number;

  // The account records' entity named rather than imported: the relation exists for its foreign key.
  @ManyToOne('AccountEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: unknown;

  @PrimaryColumn('text')
  namespace: string;

  @PrimaryColumn('text')
  key: string;

  @Column('text')
  value: string;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt: Date;
}
