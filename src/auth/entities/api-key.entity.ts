import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from '../../account-records/entities/account.entity';

export const DEVELOPER_APP_ENVIRONMENTS = ['production', 'development', 'staging'] as const;
export type DeveloperAppEnvironment = (typeof DEVELOPER_APP_ENVIRONMENTS)[number];

/** A developer app's API key. Only a hash of the secret is kept; prefix and last four identify it to its owner. */
@Entity('api_keys')
export class ApiKeyEntity {
  /** Public key id, `key_<hex>`; also embedded in the secret so a wrong secret can be counted against its key. */
  @PrimaryColumn('text')
  keyId: string;

  @Index('ix_api_keys_account_id')
  @Column('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  @Column('text', { default: 'production' })
  environment: DeveloperAppEnvironment;

  /**
   * A frontend key: the key of the service's own web app, which `analytics.trackEvent` accepts (other keys get 403).
   * Set by the operator (`api-key create --frontend`), never by a developer app's owner.
   */
  @Column('boolean', { default: false })
  frontend: boolean;

  /** SHA-256 of the whole secret, hex. */
  @Index('ux_api_keys_secret_hash', { unique: true })
  @Column('text')
  secretHash: string;

  @Column('text')
  lastFour: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt: Date | null;
}
