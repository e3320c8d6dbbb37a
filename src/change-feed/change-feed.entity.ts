import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One committed change (change-feed.module.ts); `xid`: the id of the transaction that wrote it (feed-cursor.ts). */
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
