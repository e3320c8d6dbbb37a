import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A badge's tag review by a badge scout: open (`completed_at` null) until a scout submits it. A scout claims open
 * reviews for a while (`claimed_until`); an expired claim is free again. `review_version` is the optimistic
 * concurrency token of badge.reviseTagReview. Rows are fed from `badges` in id order, a bounded slice per claim.
 */
@Entity('badge_tag_reviews')
@Index('ix_badge_tag_reviews_open', ['badgeId'], { where: 'completed_at IS NULL' })
export class BadgeTagReviewEntity {
  @PrimaryColumn('integer')
  badgeId: number;

  @Column('integer', { nullable: true })
  claimedBy: number | null;

  @Column('timestamptz', { nullable: true })
  claimedUntil: Date | null;

  @Column('timestamptz', { nullable: true })
  completedAt: Date | null;

  @Column('integer', { nullable: true })
  reviewerAccountId: number | null;

  @Column('boolean', { default: false })
  skipped: boolean;

  @Column('text', { nullable: true })
  skipReason: string | null;

  @Column('integer', { default: 0 })
  reviewVersion: number;
}
