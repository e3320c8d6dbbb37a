import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';
import type { StoredLocation } from '../location/account-location';

/** What a signed-in user chose for their own account; platform data lives on AccountEntity. */
@Entity('account_settings')
export class AccountSettingsEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @OneToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text')
  email: string;

  @Column('timestamptz', { nullable: true })
  emailVerifiedAt: Date | null;

  /** Hidden from the leaderboards. */
  @Column('boolean', { default: false })
  hidden: boolean;

  @Column('text', { default: 'en' })
  language: string;

  @Column('boolean', { default: false })
  subscribed: boolean;

  @Column('text', { nullable: true })
  chosenRole: string | null;

  @Column('text', { nullable: true })
  chosenTier: string | null;

  @Column('integer', { default: 0 })
  vanityClicks: number;

  @Column('text', { nullable: true })
  countryOverrideCode: string | null;

  @Column('text', { nullable: true })
  countryOverrideName: string | null;

  /**
   * The platform's own location of the account while a country override stands in its place on the account row
   * (location/account-location.ts); null without an override. Kept current by every refresh.
   */
  @Column('jsonb', { nullable: true })
  platformLocation: StoredLocation | null;
}
