import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One profile's views in one bucket of the trending counter (an hour, or a UTC day), as Redis last held them: what
 * ViewRollup copies from Redis every VIEW_ROLLUP_INTERVAL_MS and puts back into a Redis that lost them. Never a row
 * per view or per viewer: `visitors` is the bucket's HyperLogLog as Redis encodes it (GET / SET of the key; sparse:
 * tens of bytes for a few viewers, at most 12 KB), so the distinct viewers of a window stay an exact union of its
 * buckets after a restore. Hours are kept for the last day, days for 30; older rows are pruned.
 *
 * The key leads with the unit and the bucket's start: pruning a unit deletes a range of it, and a restore reads each
 * unit's kept range in key order.
 */
@Entity('profile_view_buckets')
export class ProfileViewBucketEntity {
  /** `h` (an hour) or `d` (a UTC day). */
  @PrimaryColumn('char', { length: 1 })
  unit: 'h' | 'd';

  @PrimaryColumn('timestamptz')
  startsAt: Date;

  @PrimaryColumn('integer')
  accountId: number;

  @Column('integer')
  hits: number;

  @Column('bytea')
  visitors: Buffer;
}
