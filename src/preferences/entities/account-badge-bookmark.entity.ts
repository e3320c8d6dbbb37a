import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** A badge an account bookmarked (account.bookmarkBadge). */
@Entity('account_badge_bookmarks')
export class AccountBadgeBookmarkEntity {
  @PrimaryColumn('integer')
  accountId: number;

  // The account records' and the badge catalogue's entities named rather than imported: the relations exist for their
  // foreign keys, and nothing loads them.
  @ManyToOne('AccountEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: unknown;

  @PrimaryColumn('integer')
  badgeId: number;

  @ManyToOne('BadgeEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'badge_id' })
  badge?: unknown;

  @Column('timestamptz', { default: () => 'now()' })
  bookmarkedAt: Date;
}
