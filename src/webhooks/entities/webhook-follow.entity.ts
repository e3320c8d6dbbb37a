import { Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/**
 * An account whose `account.updated` events an endpoint receives. Keyed account first: a completed update finds
 * its endpoints with one index range.
 */
@Entity('webhook_follows')
export class WebhookFollowEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @PrimaryColumn('text')
  webhookId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id' })
  endpoint?: WebhookEndpointEntity;
}
