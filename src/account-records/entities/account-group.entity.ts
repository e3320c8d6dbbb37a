import { Entity, PrimaryColumn } from 'typeorm';
import { AccountOwnedEntity } from './account-owned';

/** Membership of an account in a platform group (64-bit group id as a decimal string). */
@Entity('account_groups')
export class AccountGroupEntity extends AccountOwnedEntity {
  @PrimaryColumn('text')
  groupId: string;
}
