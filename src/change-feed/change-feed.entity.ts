import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One committed change that in-process or derived state depends on (change-feed.module.ts). Written in the change's own
 * transaction; `xid` is that transaction's id (the default), and entries are read in (xid, id) order below the
 * snapshot horizon, so a late commit is never skipped.
 */
@Entity('change_feed')
@Index('ix_change_feed_order', ['xid', 'id'])
@Index('ix_change_feed_pruned', ['xid', 'id'], { where: "kind = 'pruned'::text" })
export class ChangeFeedEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column('bigint', { default: () => 'txid_current()' })
  xid: string;

  @Column('text')
  kind: string;

  @Column('integer', { array: true, default: () => "'{}'" })
  accountIds: number[];

  @Column('jsonb', { nullable: true })
  payload: Record<string, unknown> | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt: Date;
}
