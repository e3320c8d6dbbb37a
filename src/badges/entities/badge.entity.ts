import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A badge definition: an app's normal or foil badge, or a special badge (no app). Public id `bdg_<id>`.
 * Holder statistics are computed from account_badges; `scarcity` is the platform's own holder count, as
 * last reported by it.
 */
@Entity('badges')
export class BadgeEntity {
  @PrimaryGeneratedColumn('increment')
  id: number;

  /** `app:<appId>:normal`, `app:<appId>:foil` or `special:<badgeid>`: the natural key the worker upserts on. */
  @Index('ux_badges_badge_key', { unique: true })
  @Column('text')
  badgeKey: string;

  @Index('ix_badges_app_id')
  @Column('integer', { nullable: true })
  appId: number | null;

  /** The platform's badge id (`badgeid`). */
  @Column('integer')
  platformBadgeId: number;

  @Column('boolean', { default: false })
  isFoil: boolean;

  /** The platform's name of the badge (its badge page's, pricing/badge-art.service.ts); '' until read. */
  @Column('text', { default: '' })
  name: string;

  /** The platform's image file of the badge (`<hash>.png`, from the same page); '' until read. */
  @Column('text', { default: '' })
  image: string;

  /** When the name and image were last read from a holder's badge page (null: never). */
  @Column('timestamptz', { nullable: true })
  artCheckedAt: Date | null;

  @Column('integer', { default: 1 })
  baseLevel: number;

  /** Xp per level. */
  @Column('integer', { default: 100 })
  baseXp: number;

  @Column('boolean', { default: false })
  isEvent: boolean;

  @Column('boolean', { default: false })
  isSale: boolean;

  /** Bumped by every tag edit: the optimistic-concurrency token of badge.setTags. */
  @Column('integer', { default: 0 })
  tagsVersion: number;

  @Column('bigint', { default: 0, transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  scarcity: number;
}
