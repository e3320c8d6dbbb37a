import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { forbidden, serviceUnavailable, tooManyRequests } from '../common/problem/problem.exception';
import { Principal } from '../common/auth/principal';
import { StatsEvents } from '../stats/events/stats-events';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import { UpdateProgressService } from '../account-records/progress/update-progress.service';
import { PlatformSpending, UPDATE_CALLS } from '../platform/spending/platform-spending';
import { V1AccountRefreshInventoryResponseBody } from './dto/refresh.dto';
import { ACCOUNT_UPDATE_QUEUE, AccountUpdateJob, AccountUpdatePayload, accountUpdateJobId } from './update-queue.constants';

/**
 * `account.queueUpdate`: claims the account for an update in PostgreSQL (atomically, so concurrent requests
 * queue one run) and enqueues one BullMQ job per account. A request's update spends UPDATE_CALLS platform calls
 * (made by the worker): they are reserved against the caller's account before anything is claimed, and given back
 * when nothing was queued (PlatformSpending: 429 past the account's hourly share, 503 past the requests' daily one).
 */
@Injectable()
export class AccountUpdateQueueService {
  constructor(
    @InjectQueue(ACCOUNT_UPDATE_QUEUE) private readonly queue: Queue<AccountUpdatePayload>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: AccountLookupService,
    private readonly progress: UpdateProgressService,
    private readonly stats: StatsEvents,
    private readonly spending: PlatformSpending,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Inventories are read by the account update, so a refresh queues one (with its cooldown: 429 when too soon). */
  async refreshInventory(principal: Principal): Promise<V1AccountRefreshInventoryResponseBody> {
    await this.lookup.findTracked({ id: { accountId: principal.accountId } });
    await this.queueUpdate({ id: { accountId: principal.accountId } }, false, principal);
    return { nextRefreshAt: Math.ceil(Date.now() / 1000) + this.config.queue.updateCooldownSeconds };
  }

  async queueUpdate(selector: AccountSelector, force: boolean, principal: Principal): Promise<void> {
    if (force && !(await this.isStaff(principal.accountId))) throw forbidden('Only staff may force an update.');
    const reservation = await this.spending.reserve(principal.accountId, UPDATE_CALLS);
    let queued = false;
    try {
      queued = await this.queueTrusted(selector, force, principal.accountId);
    } finally {
      if (!queued) await reservation.settle(0).catch(() => undefined);
    }
  }

  /**
   * Queues an update for a caller trusted to `force` (staff, checked above, or the operator CLI). Resolves true when
   * a run was queued, false when one was already queued or running; throws 404 for an account the platform does not
   * know and 429 before `nextAllowedTime` (unless forced). A look-up of an untracked account is paid by `payer`'s
   * share of the platform budget (null: unmetered, for the operator and a user's own first update at sign-in).
   */
  async queueTrusted(selector: AccountSelector, force: boolean, payer: number | null = null): Promise<boolean> {
    const { accountId, created } = await this.lookup.resolveForQueue(selector, payer);
    if (created) await this.stats.publish({ accountsAdded: 1, totalAccounts: 1 });
    // TypeORM returns [rows, affectedCount] for an UPDATE … RETURNING.
    const [claimed]: [{ account_id: number }[], number] = await this.dataSource.query(
      `UPDATE accounts SET last_queue_status = 'pending'
        WHERE account_id = $1 AND last_queue_status NOT IN ('pending', 'in_progress') AND (next_allowed_time <= now() OR $2)
        RETURNING account_id`,
      [accountId, force],
    );
    if (!claimed.length) {
      await this.explainUnclaimed(accountId);
      return false;
    }
    const runId = randomUUID();
    const queuedAt = new Date();
    await this.dataSource.query(
      `INSERT INTO account_updates (run_id, account_id, status, queued_at, steps) VALUES ($1, $2, 'pending', $3, '[]')`,
      [runId, accountId, queuedAt],
    );
    try {
      await this.enqueue(accountId, runId);
    } catch {
      await this.release(accountId, runId);
      throw serviceUnavailable('The update queue is unavailable; try again shortly.');
    }
    await this.progress.publish(UpdateProgressService.initial(accountId, runId, queuedAt));
    return true;
  }

  /** Undoes a claim whose job could not be queued, so the account does not wait for a job that does not exist. */
  private async release(accountId: number, runId: string): Promise<void> {
    await this.dataSource.query('DELETE FROM account_updates WHERE run_id = $1', [runId]);
    await this.dataSource.query(
      `UPDATE accounts SET last_queue_status = CASE WHEN updated_at IS NULL THEN 'undefined' ELSE 'completed' END WHERE account_id = $1`,
      [accountId],
    );
  }

  /** Adds the run's job; the id is derived from the run, so a retried add of the same run is still one job. */
  enqueue(accountId: number, runId: string) {
    return this.queue.add(
      AccountUpdateJob.Refresh,
      { accountId, runId },
      {
        jobId: accountUpdateJobId(accountId, runId),
        attempts: this.config.queue.attempts,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** Whether the run has a job that will still run (waiting, delayed or active; not gone, completed or failed). */
  async hasJob(accountId: number, runId: string): Promise<boolean> {
    const state = await this.queue.getJobState(accountUpdateJobId(accountId, runId));
    return state !== 'unknown' && state !== 'completed' && state !== 'failed';
  }

  /** Workers connected to the update queue, or null when Redis does not say (CLIENT LIST may be disabled). */
  async workerCount(): Promise<number | null> {
    return this.queue.getWorkersCount().catch(() => null);
  }

  /** Not claimed: already queued or running (nothing to do), or asked for before `nextAllowedTime`. */
  private async explainUnclaimed(accountId: number): Promise<void> {
    const [row]: { last_queue_status: string; next_allowed_time: Date }[] = await this.dataSource.query(
      'SELECT last_queue_status, next_allowed_time FROM accounts WHERE account_id = $1',
      [accountId],
    );
    if (!row || row.last_queue_status === 'pending' || row.last_queue_status === 'in_progress') return;
    const waitSeconds = (row.next_allowed_time.getTime() - Date.now()) / 1000;
    throw tooManyRequests(
      `Account ${accountId} was updated recently; it may be updated again from ${row.next_allowed_time.toISOString()}.`,
      waitSeconds,
    );
  }

  private async isStaff(accountId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM account_roles WHERE account_id = $1 AND role IN ('staff', 'owner', 'developer')`,
      [accountId],
    );
    return rows.length > 0;
  }
}
