import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from '../../account-records/entities/account.entity';

export const ACTIVITY_EVENT_TYPES = ['badge_crafted', 'level_milestone', 'rank_milestone', 'scarcity_milestone'] as const;
export type ActivityEventType = (typeof ACTIVITY_EVENT_TYPES)[number];

/** What an event carries besides its type; which parts are set depends on the type. */
export interface ActivityEventData {
  badge?: { badgeId: number; level: number; xp: number; completionTime: string };
  level?: { previous: number; current: number };
  scarcity?: { globalCraftOrder: number };
  /** A `rank_milestone`: the board, the top-N bucket entered (`top_10`…), the global rank before (0: unranked) and now. */
  rank?: { leaderboard: string; bucket: string; previous: number; current: number; location: { type: 'global' } };
}

/** Something an update observed happening to an account: a craft, a level milestone, an early craft, a rank milestone. */
@Entity('activity_events')
@Index('ix_activity_events_feed', ['occurredAt', 'id'])
@Index('ix_activity_events_account_feed', ['accountId', 'occurredAt', 'id'])
// The global feed filtered by type: one newest-first range per requested type (rare types are not dug out of the
// whole feed).
@Index('ix_activity_events_type_feed', ['eventType', 'occurredAt', 'id'])
export class ActivityEventEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text')
  eventType: ActivityEventType;

  @Column('timestamptz')
  occurredAt: Date;

  @Column('jsonb')
  data: ActivityEventData;
}
