import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An app (game) seen in an account's library, badges or inventory. */
@Entity('apps')
export class AppEntity {
  @PrimaryColumn('integer')
  appId: number;

  @Column('text', { default: '' })
  name: string;

  /** Icon hash as the platform reports it (`img_icon_url`). */
  @Column('text', { default: '' })
  icon: string;
}
