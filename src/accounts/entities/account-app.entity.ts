import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** An app in an account's library, with playtime in minutes. */
@Entity('account_apps')
@Index('ix_account_apps_app_playtime', ['appId', 'playtime'])
export class AccountAppEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @PrimaryColumn('integer')
  appId: number;

  @Column('integer', { default: 0 })
  playtime: number;

  @Column('integer', { default: 0 })
  playtime2Weeks: number;

  @Column('timestamptz', { nullable: true })
  lastPlayed: Date | null;
}
