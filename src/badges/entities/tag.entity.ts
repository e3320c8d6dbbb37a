import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const TAG_KINDS = ['color', 'design', 'metadata'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

/** A tag of the catalogue: a colour (with its swatch), a visual design, or a non-visual (metadata) tag. */
@Entity('tags')
@Index('ux_tags_kind_name', ['kind', 'nameKey'], { unique: true })
export class TagEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  kind: TagKind;

  @Column('text')
  name: string;

  /** The name lower-cased: one tag per name and kind, whatever the case. */
  @Column('text')
  nameKey: string;

  /** Colour tags: swatch hex codes. */
  @Column('jsonb', { nullable: true })
  hex: string[] | null;

  @Column('text', { default: '' })
  hsl: string;

  /** Colour tags: the family it belongs to, and whether it is that family's representative. */
  @Column('text', { default: '' })
  colorGroup: string;

  @Column('boolean', { default: false })
  groupOwner: boolean;
}
