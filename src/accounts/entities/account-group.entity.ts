import { Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** Membership of an account in a platform group (64-bit group id as a decimal string). */
@Entity('account_groups')
export class AccountGroupEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @PrimaryColumn('text')
  groupId: string;
}
