import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { JsonLogger } from '../common/logging/json-logger';
import { redisConnectionOptions } from '../common/redis/redis-connection';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { GroupRefreshQueue } from './group-refresh-queue.service';
import { GroupRefresher } from './group-refresher.service';
import { GROUP_REFRESH_QUEUE, GroupRefreshJob, GroupRefreshPayload } from './group-refresh.constants';

/** How often the worker checks whether the service's own group is due (it must always be on hand for the board). */
const OWN_GROUP_CHECK_MS = 60_000;

function isPayload(data: unknown): data is GroupRefreshPayload {
  return Number.isInteger((data as GroupRefreshPayload)?.gid);
}

/**
 * Consumes group refreshes in the worker process (a BullMQ Worker built from the validated config, as for account
 * updates), and keeps the service's own group (`SERVICE_GROUP_ID`, the board's `steamSetsGroup`) read: it is
 * queued at boot and whenever it is due, whether or not a tracked account is in it.
 */
@Injectable()
export class GroupRefreshProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('GroupRefreshProcessor');
  private worker: Worker | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly refresher: GroupRefresher,
    private readonly queue: GroupRefreshQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const { lockDurationMs, stalledIntervalMs } = this.config.queue;
    this.worker = new Worker(GROUP_REFRESH_QUEUE, (job) => this.process(job), {
      connection: { ...redisConnectionOptions(this.config.redisUrl), maxRetriesPerRequest: null },
      prefix: `${this.config.redisPrefix}:bull`,
      concurrency: this.config.groups.concurrency,
      lockDuration: lockDurationMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount: 3,
    });
    this.worker.on('failed', (job, error) =>
      this.logger.warn({ msg: 'group refresh attempt failed', jobId: job?.id, attempts: job?.attemptsMade, error: error.message }),
    );
    this.worker.on('error', (error) => this.logger.error({ msg: 'queue worker error', error: error.message }));
    const check = () =>
      void this.queue
        .enqueueStale([this.config.groups.serviceGroupId])
        .catch((error: unknown) => this.logger.warn({ msg: 'could not queue the service group', error: String(error) }));
    check();
    this.timer = setInterval(check, Math.min(OWN_GROUP_CHECK_MS, this.config.groups.refreshIntervalSeconds * 1000));
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.worker?.close();
  }

  private async process(job: Job<unknown>): Promise<void> {
    if (job.name !== GroupRefreshJob.Refresh || !isPayload(job.data)) {
      this.logger.error({ msg: 'dropping malformed job', jobId: job.id, name: job.name });
      return;
    }
    await this.refresher.refresh(job.data.gid);
  }
}
