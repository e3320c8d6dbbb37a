import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from '../../account-records/entities/account.entity';

export const WATCH_KINDS = ['setPrice', 'rank', 'friendBadge'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** What a watch names besides its kind (camelCase, as the wire shows it); which parts are set depends on the kind. */
export interface WatchParams {
  appId?: number;
  foil?: boolean;
  atOrBelowCents?: number;
  accountId?: number;
  leaderboard?: string;
  rank?: number;
  direction?: 'reaches' | 'leaves';
}

/**
 * A signed-in user's watch (src/watches): a condition on one target that fires once. `target` is the key the
 * evaluator looks watches up by (`price:<app>:<normal|foil>`, `rank:<account>`, `friend:<account>`); the partial
 * index holds only the watches still waiting, so a change costs one index probe of its target, never a scan.
 */
@Entity('account_watches')
@Index('ix_account_watches_owner', ['accountId', 'createdAt'])
@Index('ix_account_watches_waiting', ['target'], { where: 'fired_at IS NULL' })
export class AccountWatchEntity {
  /** Public id, `wch_<16 hex>`. */
  @PrimaryColumn('text')
  watchId: string;

  /** The owner. */
  @Column('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text')
  kind: WatchKind;

  @Column('text')
  target: string;

  @Column('jsonb')
  params: WatchParams;

  /** A rank watch's last seen global rank of its account (null: unranked), so that only a crossing fires it. */
  @Column('integer', { nullable: true })
  lastValue: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { nullable: true })
  firedAt: Date | null;

  /** What was seen when it fired (the set price, the ranks, the badge crafted). */
  @Column('jsonb', { nullable: true })
  fired: Record<string, unknown> | null;
}
