import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { AccountOwnedEntity } from './account-owned';

/**
 * One direction of a friendship as the account's own friend list reports it. The reverse index lets the
 * friend graph be walked from accounts whose own list is private or was never read.
 */
@Entity('account_friends')
@Index('ix_account_friends_friend', ['friendAccountId'])
export class AccountFriendEntity extends AccountOwnedEntity {
  @PrimaryColumn('integer')
  friendAccountId: number;

  @Column('timestamptz', { nullable: true })
  friendSince: Date | null;
}
