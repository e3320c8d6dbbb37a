import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { AccountOwnedEntity } from './account-owned';

/** An app in an account's library, with playtime in minutes. */
@Entity('account_apps')
// An app's owners by minutes played and, among equal minutes, by account: app.listOwners walks it a level at a time
// (see levelWalkSql), so a page never sorts the many owners who never played.
@Index('ix_account_apps_app_playtime', ['appId', 'playtime', 'accountId'])
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
