import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { AccountOwnedEntity } from './account-owned';

/** An app in an account's library, with playtime in minutes. */
@Entity('account_apps')
@Index('ix_account_apps_app_playtime', ['appId', 'playtime'])
export class AccountAppEntity extends AccountOwnedEntity {
  @PrimaryColumn('integer')
  appId: number;

  @Column('integer', { default: 0 })
  playtime: number;

  @Column('integer', { default: 0 })
  playtime2Weeks: number;

  @Column('timestamptz', { nullable: true })
  lastPlayed: Date | null;
}
