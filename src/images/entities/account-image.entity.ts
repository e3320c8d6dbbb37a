import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from '../../account-records/entities/account.entity';
import type { ImageFormat, ImageType } from '../image-formats';

/**
 * An image an account uploaded. The bytes are in the ImageStore under `fileName`, which several rows may share
 * (the same picture uploaded twice is stored once); the row is what makes the file part of a profile.
 */
@Entity('account_images')
@Index('ix_account_images_account', ['accountId', 'imageType', 'createdAt'])
// "Only one active image per type": the newest upload of a type is its active one.
@Index('ux_account_images_active', ['accountId', 'imageType'], { unique: true, where: 'active' })
// Whether any row still references a file before it is deleted from the store.
@Index('ix_account_images_file_name', ['fileName'])
export class AccountImageEntity {
  /** `img_…`, the wire `imageId`. */
  @PrimaryColumn('text')
  imageId: string;

  @Column('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text')
  imageType: ImageType;

  /** `<sha256>.<ext>` of the stored (re-encoded) bytes; served at `/images/<fileName>`. */
  @Column('text')
  fileName: string;

  @Column('text')
  format: ImageFormat;

  @Column('integer')
  width: number;

  /** Of one frame. */
  @Column('integer')
  height: number;

  @Column('integer')
  frames: number;

  /** Of the stored bytes. */
  @Column('integer')
  byteSize: number;

  @Column('boolean')
  active: boolean;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt: Date;
}
