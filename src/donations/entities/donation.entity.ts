import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from '../../account-records/entities/account.entity';

/** One donation, in cents; without an account it is anonymous. Recorded by operators through the CLI. */
@Entity('donations')
@Index('ix_donations_donated_at', ['donatedAt'])
export class DonationEntity {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column('integer', { nullable: true })
  accountId: number | null;

  @ManyToOne(() => AccountEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('integer')
  cents: number;

  @Column('timestamptz', { default: () => 'now()' })
  donatedAt: Date;
}
