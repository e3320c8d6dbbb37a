import { JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** Base of the rows an account owns (badges, apps, friends, groups, items): keyed by it, deleted with it. */
export abstract class AccountOwnedEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;
}
