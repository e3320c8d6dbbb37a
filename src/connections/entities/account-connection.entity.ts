import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from '../../account-records/entities/account.entity';
import type { ConnectionProvider } from '../connection-limits';

/**
 * An account of another service linked to an account here: proven by OAuth (the provider said who the user is) or,
 * for a domain, by a DNS TXT record or an HTTPS file carrying `verificationCode`. No provider token is stored: the
 * identity is read once, at linking (and at reconnecting), and the tokens are dropped.
 */
@Entity('account_connections')
// The profile reads an account's connections (profile-extras.ts), settings too.
@Index('ix_account_connections_account', ['accountId', 'createdAt'])
// One connection per OAuth provider and account; any number of domains (within the account's allowance).
@Index('ux_account_connections_provider', ['accountId', 'provider'], { unique: true, where: `provider <> 'domain'` })
@Index('ux_account_connections_domain', ['accountId', 'externalId'], { unique: true, where: `provider = 'domain'` })
// An account of a provider is linked to one account here at a time.
@Index('ux_account_connections_external', ['provider', 'externalId'], { unique: true, where: `provider <> 'domain'` })
export class AccountConnectionEntity {
  /** `con_…`, the wire `connectionId`: random, so ids cannot be guessed or counted. */
  @PrimaryColumn('text')
  connectionId: string;

  @Column('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text')
  provider: ConnectionProvider;

  /** The provider's id of the user; for a domain, the domain (lower case, ASCII). */
  @Column('text')
  externalId: string;

  @Column('text')
  name: string;

  /** The provider's avatar URL of the user; '' for none (and for domains). */
  @Column('text')
  avatar: string;

  @Column('boolean', { default: false })
  hidden: boolean;

  @Column('boolean')
  verified: boolean;

  /** Set when a re-read of the identity failed; the service reads identities only when the user links or reconnects. */
  @Column('boolean', { default: false })
  failed: boolean;

  /** The code a domain must publish; null for OAuth connections. */
  @Column('text', { nullable: true })
  verificationCode: string | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { nullable: true })
  verifiedAt: Date | null;
}
