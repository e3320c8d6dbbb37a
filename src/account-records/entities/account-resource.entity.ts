import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A resource an operator granted an account (`admin.updateResources`): it replaces the value the service computes
 * for that resource (account-records/resources/account-resources.ts says which resources exist and who enforces them).
 */
@Entity('account_resources')
export class AccountResourceEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @PrimaryColumn('text')
  resource: string;

  @Column('text')
  value: string;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt: Date;
}
