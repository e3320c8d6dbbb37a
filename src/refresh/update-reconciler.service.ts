/**
 * # Update reconciliation
 *
 * PostgreSQL says which accounts wait for an update (`last_queue_status` `pending` or `in_progress`); BullMQ, in
 * Redis, holds the jobs that will run them. The two drift apart when a store loses something: a Redis that comes back
 * empty has lost every job; a worker that dies, or whose last write failed with PostgreSQL away, can leave a run
 * `in_progress` after its job is gone. BullMQ itself re-runs an active job whose worker's lock expired (stalled
 * jobs); this puts right everything else, while the worker runs:
 *
 * - every `UPDATE_RECOVERY_INTERVAL_MS` it reads up to BATCH waiting accounts (ix_accounts_queued, a partial index:
 *   the rows read are the accounts waiting, never the population), continuing from the last one it read;
 * - an account whose run has a live job (waiting, delayed, active) is fine; one found without a job on two rounds in
 *   a row, for the same run (the first sighting may be an API request between its claim and its enqueue, or a run
 *   that completed while this round read), is put right: its run is queued again under the run's own job id (an add
 *   that another worker races adds one job), or recorded `failed` when it has used up its attempts;
 * - one round at a time across workers (a Redis lock); at boot a first pass covers every waiting account at once.
 */
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/lifecycle/periodic-task';
import { JsonLogger } from '../common/logging/json-logger';
import { releaseLock, tryLock } from '../common/redis/redis-lock';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AccountUpdateQueueService } from './account-update-queue.service';
import { AccountUpdater } from './account-updater.service';

/** Waiting accounts looked at per round: bounded work, whatever a lost Redis left behind. */
export const RECONCILE_BATCH = 500;
const LOCK_MS = 60_000;

interface WaitingAccount {
  account_id: number;
  run_id: string | null;
  attempts: number | null;
}

@Injectable()
export class UpdateReconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('UpdateReconciler');
  private readonly task: PeriodicTask;
  private readonly lockKey: string;
  /** Where the next round goes on (the last account id read; 0: from the start). */
  private cursor = 0;
  /** Accounts found without a job: the run they wait for ('' for none) and when; put right if still so a round later. */
  private readonly suspects = new Map<number, { run: string; seenAt: number }>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly queue: AccountUpdateQueueService,
    private readonly updater: AccountUpdater,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.lockKey = redisKey(config, 'updates', 'reconcile-lock');
    this.task = new PeriodicTask(this.logger, 'update reconciliation failed', config.queue.recoveryIntervalMs, () => this.reconcile());
  }

  /** A worker starting puts right at once what the previous one left (its jobs are not running anywhere now). */
  async onApplicationBootstrap(): Promise<void> {
    try {
      do await this.reconcile(true);
      while (this.cursor !== 0);
    } catch (error) {
      this.logger.warn({ msg: 'update reconciliation at boot failed', error: String(error) });
    }
    this.task.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One round; `atOnce` acts on a first sighting (boot). Returns how many accounts it put right (tests call it). */
  async reconcile(atOnce = false): Promise<number> {
    const token = await tryLock(this.redis, this.lockKey, LOCK_MS);
    if (!token) return 0;
    try {
      const rows: WaitingAccount[] = await this.dataSource.query(
        `SELECT a.account_id, u.run_id, u.attempts FROM accounts a
           LEFT JOIN LATERAL (SELECT run_id, attempts FROM account_updates u
                               WHERE u.account_id = a.account_id AND u.status IN ('pending', 'in_progress')
                               ORDER BY u.queued_at DESC LIMIT 1) u ON true
          WHERE a.last_queue_status IN ('pending', 'in_progress') AND a.account_id > $1
          ORDER BY a.account_id LIMIT ${RECONCILE_BATCH}`,
        [this.cursor],
      );
      this.cursor = rows.length < RECONCILE_BATCH ? 0 : rows[rows.length - 1].account_id;
      const now = Date.now();
      let fixed = 0;
      for (const row of rows) {
        if (row.run_id && (await this.queue.hasJob(row.account_id, row.run_id))) {
          this.suspects.delete(row.account_id);
          continue;
        }
        const run = row.run_id ?? '';
        const seen = this.suspects.get(row.account_id);
        if (!atOnce && (seen?.run !== run || now - seen.seenAt < this.config.queue.recoveryIntervalMs / 2)) {
          if (seen?.run !== run) this.suspects.set(row.account_id, { run, seenAt: now });
          continue;
        }
        this.suspects.delete(row.account_id);
        await this.putRight(row);
        fixed++;
      }
      // Sightings not confirmed for a while (the account settled, or the cursor is elsewhere) are forgotten.
      for (const [accountId, { seenAt }] of this.suspects)
        if (now - seenAt > 10 * this.config.queue.recoveryIntervalMs) this.suspects.delete(accountId);
      if (fixed) this.logger.warn({ msg: 're-queued or settled updates that had no job', fixed });
      return fixed;
    } finally {
      await releaseLock(this.redis, this.lockKey, token);
    }
  }

  /** Queues the account's run again (a new run when it has none), or settles it failed once its attempts are spent. */
  private async putRight(row: WaitingAccount): Promise<void> {
    if (row.run_id && (row.attempts ?? 0) >= this.config.queue.attempts) {
      await this.updater.settleFailed(row.account_id, row.run_id, { category: 'Error', retryable: true });
      return;
    }
    const runId = row.run_id ?? randomUUID();
    if (!row.run_id)
      await this.dataSource.query(
        `INSERT INTO account_updates (run_id, account_id, status, queued_at, steps) VALUES ($1, $2, 'pending', now(), '[]')`,
        [runId, row.account_id],
      );
    // Waiting for its job again, not running: what account.getInfo shows until a worker starts it.
    await this.dataSource.query(
      `UPDATE accounts SET last_queue_status = 'pending' WHERE account_id = $1 AND last_queue_status = 'in_progress'`,
      [row.account_id],
    );
    await this.dataSource.query(`UPDATE account_updates SET status = 'pending' WHERE run_id = $1 AND status = 'in_progress'`, [runId]);
    await this.queue.enqueue(row.account_id, runId);
  }
}
