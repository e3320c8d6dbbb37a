import { Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BadgeEntity } from './badge.entity';
import { TagEntity } from './tag.entity';

/** A confirmed tag of a badge. */
@Entity('badge_tags')
export class BadgeTagEntity {
  @PrimaryColumn('integer')
  badgeId: number;

  @PrimaryColumn('text')
  tagId: string;

  @ManyToOne(() => BadgeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'badge_id' })
  badge?: BadgeEntity;

  @ManyToOne(() => TagEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tag_id' })
  tag?: TagEntity;
}
