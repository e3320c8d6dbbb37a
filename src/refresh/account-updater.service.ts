import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { retryThroughOutage } from '../common/lifecycle/retry-through-outage';
import { ChangeFeed } from '../change-feed/change-feed';
import { AccountEntity } from '../account-records/entities/account.entity';
import { AccountUpdateEntity } from '../account-records/entities/account-update.entity';
import { ActivityRecorder } from '../activity/activity-recorder';
import { rankMilestoneEvents } from '../activity/activity-detector';
import { RankEngine } from '../ranks/rank-engine.service';
import { RankHistoryRecorder } from '../ranks/rank-history.recorder';
import { LazyBoards } from '../ranks/lazy-boards.service';
import { StatsEvents } from '../stats/events/stats-events';
import { AccountWriter } from './account-writer';
import { PlatformSnapshotReader } from './platform-snapshot';
import { ProgressSnapshot, UpdateProgressService } from '../account-records/progress/update-progress.service';
import { GroupRefreshQueue } from './group-refresh-queue.service';
import { PlatformSnapshot } from './platform-snapshot';

/**
 * One refresh run of one account, as the worker executes it: pending → in_progress → completed, with every
 * step published as progress. A failed attempt is handed back to BullMQ, which retries it with backoff.
 */
@Injectable()
export class AccountUpdater {
  private readonly logger = new JsonLogger('AccountUpdater');

  constructor(
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    @InjectRepository(AccountUpdateEntity) private readonly runs: Repository<AccountUpdateEntity>,
    private readonly reader: PlatformSnapshotReader,
    private readonly writer: AccountWriter,
    private readonly progress: UpdateProgressService,
    private readonly stats: StatsEvents,
    private readonly activity: ActivityRecorder,
    private readonly ranks: RankEngine,
    private readonly rankHistory: RankHistoryRecorder,
    private readonly lazyBoards: LazyBoards,
    private readonly groups: GroupRefreshQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly feed: ChangeFeed,
  ) {}

  async run(accountId: number, runId: string): Promise<void> {
    const started = Date.now();
    let snapshot = await this.start(accountId, runId);
    const platform = await this.reader.read(accountId, async (step) => {
      snapshot = UpdateProgressService.atStep(snapshot, step);
      await this.progress.publish(snapshot);
    });
    snapshot = UpdateProgressService.atStep(snapshot, 'save');
    await this.progress.publish(snapshot);
    const done = UpdateProgressService.finished(snapshot, 'completed');
    // What the account held before, so the per-app and per-badge boards it leaves lose it too.
    const held = await this.lazyBoards.held(accountId);
    const result = await this.writer.write(accountId, runId, platform, done.steps, this.config.queue.updateCooldownSeconds);
    // The run's feed entry committed with it: the nudge wakes the API processes now (until one has read the entry it
    // answers the account's ranks from Redis). Ranks move before the run is announced complete, so a client reacting
    // to that reads them; `lastQueueStatus` (account.getInfo) is the writer's commit, milliseconds earlier.
    await this.feed.nudge([accountId]);
    await this.ranks.place([accountId]);
    await this.lazyBoards.place(accountId, held);
    const entered = await this.rankHistory.record(accountId, result.finishedAt);
    const milestones = await this.activity.recordAfter(this.accounts.manager, accountId, rankMilestoneEvents(entered, result.finishedAt));
    await this.queueGroups(accountId, platform);
    await this.progress.publish(done);
    // Exactly what the writer added to the maintained totals, so stream clients stay in step with stats.getStats.
    await this.stats.publish(result.deltas);
    await this.activity.announce([...result.activityIds, ...milestones]);
    this.logger.log({ msg: 'account updated', accountId, runId, durationMs: Date.now() - started, after: result.after });
  }

  /**
   * Queues a refresh of each group the account is in that was not read within the group refresh interval: groups
   * are shared by many accounts, so they are read on their own schedule (GroupRefresher), not once per member.
   * Best effort: the account's run stands without it, and its next update queues them again.
   */
  private async queueGroups(accountId: number, platform: PlatformSnapshot): Promise<void> {
    if (platform.groups.visibility !== 'public') return;
    await this.groups
      .enqueueStale(platform.groups.groups.map(Number))
      .catch((error: unknown) => this.logger.warn({ msg: 'could not queue group refreshes', accountId, error: String(error) }));
  }

  /** Marks the run in progress (creating its record if a recovered job has none) and returns its progress. */
  private async start(accountId: number, runId: string): Promise<ProgressSnapshot> {
    const now = new Date();
    // The attempt is counted before the account shows it as running, so a crash at any point is accounted for.
    const existing = await this.runs.findOne({ where: { runId } });
    const run = existing ?? this.runs.create({ runId, accountId, queuedAt: now, steps: [] });
    run.status = 'in_progress';
    run.startedAt = now;
    run.attempts = (run.attempts ?? 0) + 1;
    await this.runs.save(run);
    await this.accounts.update({ accountId }, { lastQueueStatus: 'in_progress' });
    const snapshot = { ...UpdateProgressService.initial(accountId, runId, run.queuedAt), status: 'in_progress' as const };
    await this.progress.publish(snapshot);
    return snapshot;
  }

  /** The run waits for the platform call budget to refill; it stays queued (`pending`) until then. */
  async postponed(accountId: number, runId: string, resumeAt: Date): Promise<void> {
    this.logger.warn({ msg: 'platform call budget exhausted; update postponed', accountId, runId, resumeAt: resumeAt.toISOString() });
    await this.accounts.update({ accountId }, { lastQueueStatus: 'pending' });
    await this.runs.update({ runId }, { status: 'pending' });
  }

  /**
   * After a failed attempt: back to `pending` while BullMQ will retry; after the last attempt the run is
   * recorded as failed and the account returns to its last settled state, so nothing stays `in_progress`. That last
   * write is retried while PostgreSQL is away (retryThroughOutage): the attempt failed because of it, most likely.
   */
  async attemptFailed(accountId: number, runId: string, error: Error, willRetry: boolean): Promise<void> {
    const category = error.name === 'UnrecoverableError' ? 'not_found' : (error.constructor?.name ?? 'Error');
    this.logger.warn({ msg: 'account update attempt failed', accountId, runId, willRetry, error: error.message });
    if (willRetry) {
      await this.accounts.update({ accountId }, { lastQueueStatus: 'pending' });
      await this.runs.update({ runId }, { status: 'pending' });
      return;
    }
    await this.settleFailed(accountId, runId, { category, retryable: category !== 'not_found' });
  }

  /**
   * Records a run as failed (its steps as far as its progress got) and returns the account to its last settled state
   * (`completed` once refreshed, else `undefined`), in one transaction retried through a PostgreSQL outage. Only a run
   * still pending or in progress is settled, and the account only while no other run of it waits: a run that
   * completed, or a newer run, is left alone. The failed progress is published after, best effort (Redis may be away
   * too; account.updateProgress reads the run's row once the progress is gone).
   */
  async settleFailed(accountId: number, runId: string, failure: { category: string; retryable: boolean }): Promise<void> {
    const current = await this.progress.read(accountId).catch(() => null);
    const settled = await retryThroughOutage(this.logger, 'failed update', () =>
      this.runs.manager.transaction(async (manager) => {
        const [runs]: [{ queued_at: Date }[], number] = await manager.query(
          `UPDATE account_updates SET status = 'failed', finished_at = now(), error = $2
            WHERE run_id = $1 AND status IN ('pending', 'in_progress') RETURNING queued_at`,
          [runId, JSON.stringify(failure)],
        );
        await manager.query(
          `UPDATE accounts SET last_queue_status = CASE WHEN updated_at IS NULL THEN 'undefined' ELSE 'completed' END
            WHERE account_id = $1 AND last_queue_status IN ('pending', 'in_progress')
              AND NOT EXISTS (SELECT 1 FROM account_updates u
                               WHERE u.account_id = $1 AND u.run_id <> $2 AND u.status IN ('pending', 'in_progress'))`,
          [accountId, runId],
        );
        if (!runs.length) return null;
        const base = current?.runId === runId ? current : UpdateProgressService.initial(accountId, runId, runs[0].queued_at);
        const failed = UpdateProgressService.finished(base, 'failed', failure);
        await manager.query('UPDATE account_updates SET steps = $2 WHERE run_id = $1', [runId, JSON.stringify(failed.steps)]);
        return failed;
      }),
    );
    if (settled)
      await this.progress
        .publish(settled)
        .catch((error: unknown) => this.logger.warn({ msg: 'could not publish a failed update', runId, error: String(error) }));
  }
}
