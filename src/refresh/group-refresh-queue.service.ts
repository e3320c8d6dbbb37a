import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { GroupRefresher } from './group-refresher.service';
import { GROUP_REFRESH_QUEUE, GroupRefreshJob, GroupRefreshPayload, groupRefreshJobId } from './group-refresh.constants';

/** The most groups one account update enqueues (the platform caps memberships far below this). */
const MAX_GROUPS_PER_ACCOUNT = 5000;

/**
 * Enqueues group refreshes. An account update passes the groups it saw; only those not read within the refresh
 * interval are queued, one job per group (its id is derived from the gid, so a group already waiting or running is
 * not queued twice however many members are updated at once).
 */
@Injectable()
export class GroupRefreshQueue {
  constructor(
    @InjectQueue(GROUP_REFRESH_QUEUE) private readonly queue: Queue<GroupRefreshPayload>,
    private readonly refresher: GroupRefresher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Queues the stale ones among these groups; returns how many were handed to the queue. */
  async enqueueStale(gids: number[]): Promise<number> {
    const unique = [...new Set(gids)].slice(0, MAX_GROUPS_PER_ACCOUNT);
    const fresh = await this.refresher.fresh(unique);
    const stale = unique.filter((gid) => !fresh.has(gid));
    if (!stale.length) return 0;
    await this.queue.addBulk(
      stale.map((gid) => ({
        name: GroupRefreshJob.Refresh,
        data: { gid },
        opts: {
          jobId: groupRefreshJobId(gid),
          attempts: this.config.queue.attempts,
          backoff: { type: 'exponential', delay: 2000 },
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
    return stale.length;
  }
}
