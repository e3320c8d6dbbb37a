import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';

/**
 * The one pending e-mail verification code of an account: a new code replaces the previous one, a used, voided or
 * expired one is deleted. Only the code's SHA-256 is kept (over the account, the address and the code), and the
 * address it was sent to: the code verifies that address only, so a change of address in between voids it.
 */
@Entity('email_verification_codes')
export class EmailVerificationCodeEntity {
  @PrimaryColumn('integer')
  accountId: number;

  // The account records' entity named rather than imported, as the other areas do: the relation exists for its foreign key.
  @OneToOne('AccountEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: unknown;

  /** The address the code was sent to. */
  @Column('text')
  email: string;

  @Column('text')
  codeHash: string;

  @Column('timestamptz')
  expiresAt: Date;

  /** Wrong codes tried against this one; at the limit it is deleted (voided). */
  @Column('smallint', { default: 0 })
  failedAttempts: number;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt: Date;
}
