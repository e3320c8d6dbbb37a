import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/lifecycle/periodic-task';
import { JsonLogger } from '../common/logging/json-logger';

/** How long entries are kept: far longer than any follower is behind unless its process was stopped. */
export const RETENTION_MS = 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The worker deletes entries older than RETENTION_MS (and final) and, in the same statement, records a `pruned` entry
 * naming the newest transaction id deleted: a follower whose position is not past it reloads in full (FeedCursor).
 */
@Injectable()
export class ChangeFeedPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('ChangeFeedPruner');
  private readonly task = new PeriodicTask(this.logger, 'change feed pruning failed', PRUNE_EVERY_MS, () => this.prune());

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** Deletes what is older than `olderThanMs`; how many entries went. */
  async prune(olderThanMs = RETENTION_MS): Promise<number> {
    const [{ deleted }]: { deleted: number }[] = await this.dataSource.query(
      `WITH gone AS (
         DELETE FROM change_feed
          WHERE xid < txid_snapshot_xmin(txid_current_snapshot()) AND created_at < now() - $1 * interval '1 millisecond'
          RETURNING xid),
       marked AS (
         INSERT INTO change_feed (kind, payload)
         SELECT 'pruned', jsonb_build_object('through', max(xid)) FROM gone HAVING count(*) > 0)
       SELECT count(*)::int AS deleted FROM gone`,
      [olderThanMs],
    );
    if (deleted) this.logger.log({ msg: 'change feed pruned', deleted });
    return deleted;
  }
}
