import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** One direction of a friendship as the account's own friend list reports it. */
@Entity('account_friends')
export class AccountFriendEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @PrimaryColumn('integer')
  friendAccountId: number;

  @Column('timestamptz', { nullable: true })
  friendSince: Date | null;
}
