import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountOwnedEntity } from './account-owned';

/** A badge an account holds, at its current level. */
@Entity('account_badges')
@Index('ix_account_badges_badge_id', ['badgeId', 'completionTime'])
// The highest level of a badge's holders, recomputed by the holder statistics when its holder leaves or drops.
@Index('ix_account_badges_badge_level', ['badgeId', 'level'])
// The profile's priced badges (accounts/profile-extras.ts) read from the index alone: with the level in the key no heap
// tuple is fetched per badge held (those fetches were ~77 µs of the statement's ~207 at 1 M accounts; now ~34).
@Index('ix_account_badges_account_levels', ['accountId', 'badgeId', 'level'])
export class AccountBadgeEntity extends AccountOwnedEntity {
  @PrimaryColumn('integer')
  badgeId: number;

  // The badge catalogue's entity named rather than imported: the catalogue's area builds on the account records, not
  // the reverse. The relation exists for its foreign key; nothing loads it.
  @ManyToOne('BadgeEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'badge_id' })
  badge?: unknown;

  @Column('integer')
  level: number;

  @Column('integer')
  xp: number;

  @Column('timestamptz')
  completionTime: Date;
}
