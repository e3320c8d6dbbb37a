import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One accepted `badge.setTags`: who replaced which of a badge's tag sets, when, and what they became. The audit
 * trail of the tag editors (badge scouts, staff); never read on a request path.
 */
@Entity('badge_tag_edits')
@Index('ix_badge_tag_edits_badge', ['badgeId', 'tagsVersion'])
export class BadgeTagEditEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  @Column('integer')
  badgeId: number;

  /** The version the edit produced. */
  @Column('integer')
  tagsVersion: number;

  @Column('integer')
  editorAccountId: number;

  @CreateDateColumn({ type: 'timestamptz' })
  editedAt: Date;

  /** The sets the edit replaced (a set it left alone is null), as tag ids. */
  @Column('text', { array: true, nullable: true })
  colors: string[] | null;

  @Column('text', { array: true, nullable: true })
  designs: string[] | null;

  @Column('text', { array: true, nullable: true })
  metadata: string[] | null;
}
