import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one endpoint, and the log of its attempts. Unique per (endpoint, event id): the same event is
 * recorded, and so sent, once per endpoint however often its fact is seen.
 */
@Entity('webhook_deliveries')
@Index('ux_webhook_deliveries_event', ['webhookId', 'eventId'], { unique: true })
@Index('ix_webhook_deliveries_log', ['webhookId', 'deliveryId'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  deliveryId: string;

  @Column('text')
  webhookId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id' })
  endpoint?: WebhookEndpointEntity;

  @Column('text')
  eventId: string;

  @Column('text')
  eventType: string;

  /** The exact body sent on every attempt (the signature covers these bytes). */
  @Column('text')
  body: string;

  @Index('ix_webhook_deliveries_pending', { where: `status = 'pending'` })
  @Column('text', { default: 'pending' })
  status: DeliveryStatus;

  @Column('integer', { default: 0 })
  attempts: number;

  @Column('text', { nullable: true })
  lastError: string | null;

  @Column('integer', { nullable: true })
  responseCode: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { nullable: true })
  lastAttemptAt: Date | null;

  @Column('timestamptz', { nullable: true })
  deliveredAt: Date | null;
}
