import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AccountOwnedEntity } from './account-owned';

/** One direction of a friendship as the account's own friend list reports it. */
@Entity('account_friends')
export class AccountFriendEntity extends AccountOwnedEntity {
  @PrimaryColumn('integer')
  friendAccountId: number;

  @Column('timestamptz', { nullable: true })
  friendSince: Date | null;
}
