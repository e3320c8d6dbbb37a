import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ApiKeyEntity } from '../../auth/entities/api-key.entity';

/**
 * An HTTPS endpoint a developer app (an API key row) registered for events. Deleted with its key; a revoked key's
 * endpoints get nothing more (the dispatcher joins the key's `revoked_at`).
 */
@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  /** Public id, `whk_<16 hex>`. */
  @PrimaryColumn('text')
  webhookId: string;

  @Index('ix_webhook_endpoints_key_id')
  @Column('text')
  keyId: string;

  @ManyToOne(() => ApiKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'key_id' })
  key?: ApiKeyEntity;

  /**
   * The key's account, kept here so that every operation's ownership check is one primary-key read, and a user's
   * `watch.fired` events find their endpoints with one index range.
   */
  @Index('ix_webhook_endpoints_account_id')
  @Column('integer')
  accountId: number;

  @Column('text')
  url: string;

  @Column('text', { default: '' })
  description: string;

  /** Event types sent to it (`account.updated`, `activity.emitted`, `maintenance.changed`, `watch.fired`). */
  @Column('text', { array: true })
  events: string[];

  /**
   * The HMAC-SHA256 key, base64url (32 random bytes), stored as is: signing needs the key itself, so it cannot be
   * hashed like the API key secrets. It is the only copy kept; the owner sees it once (creation, rotation).
   */
  @Column('text')
  signingSecret: string;

  @Index('ix_webhook_endpoints_enabled', ['webhookId'], { where: 'enabled' })
  @Column('boolean', { default: true })
  enabled: boolean;

  /** Why it was disabled (by its owner, or after failing for WEBHOOK_DISABLE_AFTER_MS); null while enabled. */
  @Column('text', { nullable: true })
  disabledReason: string | null;

  @Column('timestamptz', { nullable: true })
  disabledAt: Date | null;

  /** Start of the current run of failed attempts; null after a success. */
  @Column('timestamptz', { nullable: true })
  failingSince: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
