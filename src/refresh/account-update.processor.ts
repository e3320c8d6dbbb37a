import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { ServiceMetrics } from '../common/metrics/service-metrics';
import { DelayedError, Job, Worker } from 'bullmq';
import { PlatformBudgetExceededError } from '../platform/client/platform-client';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { redisConnectionOptions } from '../common/redis/redis-connection';
import { AccountUpdater } from './account-updater.service';
import { ACCOUNT_UPDATE_QUEUE, AccountUpdateJob, AccountUpdatePayload } from './update-queue.constants';

function nextUtcDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 1));
}

function isPayload(data: unknown): data is AccountUpdatePayload {
  const payload = data as AccountUpdatePayload;
  return Number.isInteger(payload?.accountId) && typeof payload?.runId === 'string';
}

/**
 * Consumes `account.queueUpdate` jobs in the worker process. A BullMQ Worker is built here (not through
 * `@Processor`) because its concurrency, lock and stall timings come from the validated config. A job whose
 * worker dies loses its lock, is found stalled and runs again on a live worker.
 */
@Injectable()
export class AccountUpdateProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('AccountUpdateProcessor');
  private worker: Worker | null = null;

  constructor(
    private readonly updater: AccountUpdater,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    // Absent where no process metrics are kept (the CLI's module graph).
    @Optional() private readonly metrics?: ServiceMetrics,
  ) {}

  onApplicationBootstrap(): void {
    const { concurrency, lockDurationMs, stalledIntervalMs } = this.config.queue;
    this.worker = new Worker(ACCOUNT_UPDATE_QUEUE, (job, token) => this.process(job, token), {
      connection: { ...redisConnectionOptions(this.config.redisUrl), maxRetriesPerRequest: null },
      prefix: `${this.config.redisPrefix}:bull`,
      concurrency,
      lockDuration: lockDurationMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount: 3,
    });
    this.worker.on('failed', (job, error) => void this.onFailed(job, error));
    this.worker.on('error', (error) => this.logger.error({ msg: 'queue worker error', error: error.message }));
  }

  /** Before the database and Redis close: waits for running jobs; a job cut short by a hard kill is recovered as stalled. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  private async process(job: Job<unknown>, token?: string): Promise<void> {
    if (job.name !== AccountUpdateJob.Refresh || !isPayload(job.data)) {
      this.logger.error({ msg: 'dropping malformed job', jobId: job.id, name: job.name });
      return;
    }
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    try {
      await this.updater.run(job.data.accountId, job.data.runId);
      this.metrics?.observeUpdate('completed', took());
    } catch (error) {
      this.metrics?.observeUpdate(error instanceof PlatformBudgetExceededError ? 'postponed' : 'failed', took());
      if (!(error instanceof PlatformBudgetExceededError)) throw error;
      // The day's platform calls are spent: wait for the next UTC day instead of burning the job's attempts.
      const resumeAt = nextUtcDay();
      await this.updater.postponed(job.data.accountId, job.data.runId, resumeAt);
      await job.moveToDelayed(resumeAt.getTime(), token);
      throw new DelayedError();
    }
  }

  private async onFailed(job: Job<unknown> | undefined, error: Error): Promise<void> {
    if (!job || !isPayload(job.data)) return;
    const willRetry = error.name !== 'UnrecoverableError' && job.attemptsMade < (job.opts.attempts ?? 1);
    await this.updater
      .attemptFailed(job.data.accountId, job.data.runId, error, willRetry)
      .catch((failure: unknown) => this.logger.error({ msg: 'could not record a failed attempt', jobId: job.id, error: String(failure) }));
  }
}
