import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { redisConnectionOptions } from '../common/redis/redis-connection';
import { CYCLE_SHARE_OF_INTERVAL, PRICING_CYCLE_JOB, PRICING_QUEUE, PRICING_SCHEDULER } from './pricing.constants';
import { PricingCycle } from './pricing-cycle.service';
import { PeriodicTask } from '../common/lifecycle/periodic-task';

const RESCHEDULE_CHECK_MS = 60_000;

/**
 * Schedules and runs the pricing cycle in the worker process: one BullMQ job scheduler (a repeatable job every
 * `PRICING_INTERVAL_MS`, upserted on every boot so a changed interval takes effect, and again when a Redis that came
 * back empty lost it; the first job runs at once)
 * and a worker of concurrency 1. Several worker processes share the scheduler; the cycle's own Redis lock keeps
 * two cycles from overlapping.
 */
@Injectable()
export class PricingProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('PricingProcessor');
  private queue: Queue | null = null;
  private worker: Worker | null = null;
  private readonly stopping = new AbortController();
  /** The scheduler lives in Redis: one that came back empty has none, so it is put back (checked every minute). */
  private readonly rescheduling = new PeriodicTask(this.logger, 'pricing reschedule failed', RESCHEDULE_CHECK_MS, async () => {
    if (this.queue && !(await this.queue.getJobScheduler(PRICING_SCHEDULER))) await this.schedule();
  });

  constructor(
    private readonly cycle: PricingCycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const connection = { ...redisConnectionOptions(this.config.redisUrl), maxRetriesPerRequest: null };
    const prefix = `${this.config.redisPrefix}:bull`;
    this.queue = new Queue(PRICING_QUEUE, { connection, prefix });
    this.queue.on('error', (error) => this.logger.warn({ msg: 'pricing queue error', error: error.message }));
    await this.schedule();
    this.rescheduling.start();
    this.worker = new Worker(PRICING_QUEUE, (job) => this.process(job), { connection, prefix, concurrency: 1 });
    this.worker.on('failed', (job, error) => this.logger.error({ msg: 'pricing cycle failed', jobId: job?.id, error: error.message }));
    this.worker.on('error', (error) => this.logger.error({ msg: 'pricing worker error', error: error.message }));
  }

  /**
   * Abandons a running cycle's market call (its pace wait and retries too: the simulator may be going away with
   * the API) and waits for the cycle to end, so shutdown is not held up by the market's pace.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.rescheduling.stop();
    this.stopping.abort();
    await this.worker?.close();
    await this.queue?.close();
  }

  private async schedule(): Promise<void> {
    await this.queue!.upsertJobScheduler(
      PRICING_SCHEDULER,
      { every: this.config.pricing.intervalMs },
      { name: PRICING_CYCLE_JOB, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    );
  }

  private async process(job: Job): Promise<void> {
    if (job.name !== PRICING_CYCLE_JOB) return;
    const started = Date.now();
    const deadline = started + this.config.pricing.intervalMs * CYCLE_SHARE_OF_INTERVAL;
    const result = await this.cycle.run(deadline, this.stopping.signal);
    if (result) this.logger.debug({ msg: 'pricing cycle done', ...result, ms: Date.now() - started });
  }
}
