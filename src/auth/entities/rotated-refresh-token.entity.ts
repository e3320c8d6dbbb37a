import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserSessionEntity } from './user-session.entity';

/**
 * A refresh token of a session that was already swapped for a new pair (`account.refreshSession`), kept as its hash
 * until it would have expired: offered again, it shows that the token was copied, and the session, the family of
 * every pair rotated from its sign-in, is revoked. A session keeps its newest MAX_ROTATED_PER_SESSION only.
 */
@Entity('rotated_refresh_tokens')
export class RotatedRefreshTokenEntity {
  @PrimaryColumn('text')
  refreshHash: string;

  @Index('ix_rotated_refresh_tokens_session_id')
  @Column('text')
  sessionId: string;

  @ManyToOne(() => UserSessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: UserSessionEntity;

  @Column('timestamptz')
  rotatedAt: Date;

  /** When the token would have expired had it not been rotated; after that its reuse is refused like any stale token. */
  @Column('timestamptz')
  expiresAt: Date;
}
