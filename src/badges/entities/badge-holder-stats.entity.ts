import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BadgeEntity } from './badge.entity';

/**
 * What the service knows of a badge's tracked holders, kept in step with `account_badges` by the update writer
 * (see BadgeHolderStats) so listings never aggregate the holdings per request. A badge nobody holds any more
 * keeps its row with `holders = 0`.
 */
@Entity('badge_holder_stats')
export class BadgeHolderStatsEntity {
  @PrimaryColumn('integer')
  badgeId: number;

  @ManyToOne(() => BadgeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'badge_id' })
  badge?: BadgeEntity;

  @Column('integer', { default: 0 })
  holders: number;

  /** The highest level any holder has (0 with no holders). */
  @Column('integer', { default: 0 })
  highestLevel: number;

  @Column('timestamptz', { nullable: true })
  firstCompletion: Date | null;

  @Column('timestamptz', { nullable: true })
  lastCompletion: Date | null;
}
