import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Role } from '../account.enums';
import { AccountEntity } from './account.entity';

/** A role granted to an account (staff, donor tiers, …); `staff` unlocks forced updates. */
@Entity('account_roles')
// `staff.listStaff` and the holders of a role: by role, not by account.
@Index('ix_account_roles_role', ['role', 'accountId'])
export class AccountRoleEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @PrimaryColumn('text')
  role: Role;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('integer', { default: 0 })
  rating: number;

  @Column('jsonb', { nullable: true })
  extras: Record<string, unknown> | null;
}
