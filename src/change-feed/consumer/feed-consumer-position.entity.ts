import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A durable consumer's place in the change feed (durable-feed-consumer.ts): every entry ordered at or before
 * (xid, id) has been handled. Kept in PostgreSQL so that it outlives the worker processes and Redis.
 */
@Entity('change_feed_consumers')
export class FeedConsumerPositionEntity {
  /** The consumer's name (`watches`). */
  @PrimaryColumn('text')
  name: string;

  @Column('bigint')
  xid: string;

  @Column('bigint')
  id: string;

  /** When the position last moved: how long a consumer has been idle or away shows here. */
  @Column('timestamptz', { default: () => 'now()' })
  updatedAt: Date;
}
