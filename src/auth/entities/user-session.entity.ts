import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from '../../account-records/entities/account.entity';

/** A web-app session. Session and refresh tokens are kept only as SHA-256 hashes. */
@Entity('user_sessions')
export class UserSessionEntity {
  @PrimaryColumn('text')
  sessionId: string;

  @Index('ix_user_sessions_account_id')
  @Column('integer')
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Index('ux_user_sessions_token_hash', { unique: true })
  @Column('text')
  tokenHash: string;

  @Index('ux_user_sessions_refresh_hash', { unique: true })
  @Column('text')
  refreshHash: string;

  @Column('text', { default: '' })
  ip: string;

  @Column('text', { default: '' })
  userAgent: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz')
  expiresAt: Date;

  @Column('timestamptz')
  refreshExpiresAt: Date;

  @Column('timestamptz')
  lastSeen: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt: Date | null;
}
