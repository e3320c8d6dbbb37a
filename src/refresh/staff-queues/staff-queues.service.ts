import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { ProblemException, serviceUnavailable, tooManyRequests } from '../../common/problem/problem.exception';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CallBudget } from '../../platform/client/call-budget';
import { AccountUpdateQueueService } from '../account-update-queue.service';
import { GROUP_REFRESH_QUEUE, GroupRefreshJob, GroupRefreshPayload, groupRefreshJobId } from '../group-refresh.constants';

/** Web API calls one account update takes at most (summaries, bans, friends, groups, badges, games, level, …). */
export const CALLS_PER_ACCOUNT_UPDATE = 8;

/** An app priced this recently is not put back at the head of the pricing walk. */
export const APP_REQUEUE_COOLDOWN_SECONDS = 10 * 60;

/**
 * # Staff queues
 *
 * app.queueUpdate, group.queueUpdate and account.queueInventoryRefresh: staff (roles staff, owner, developer) queue work
 * for many ids at once, through the same queues, cooldowns and deduplication as the users' own requests.
 * - Accounts: AccountUpdateQueueService.queueTrusted without `force`: an account already queued or running is left
 *   as it is (its PostgreSQL claim), one updated within UPDATE_COOLDOWN_SECONDS is skipped; accounts the service
 *   does not track are skipped (adding one asks the platform: account.queueUpdate does that one at a time). The
 *   platform's daily call budget must cover every update asked for, or nothing is queued (429 until the next UTC day).
 * - Groups: a refresh job per group (its id from the gid: a group already waiting is not queued twice); a group read
 *   within GROUP_REFRESH_INTERVAL_SECONDS is skipped. Group reads are community calls, outside the daily budget.
 * - Apps: an app's card set and market prices are read by the pricing walk, oldest first; queueing moves the app to
 *   the head of the walk (its `checked_at` to the epoch) unless it was priced within APP_REQUEUE_COOLDOWN_SECONDS.
 *   The market calls stay paced by PLATFORM_MARKET_CALLS_PER_MINUTE. Apps without known cards have nothing to price.
 */
@Injectable()
export class StaffQueuesService {
  constructor(
    @InjectQueue(GROUP_REFRESH_QUEUE) private readonly groupQueue: Queue<GroupRefreshPayload>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accountUpdates: AccountUpdateQueueService,
    private readonly budget: CallBudget,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async queueApps(appIds: number[]): Promise<number> {
    // An INSERT's raw result is its rows (TypeORM pairs rows with a count only for UPDATE and DELETE).
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO app_pricing (app_id, checked_at)
       SELECT c.app_id, to_timestamp(0) FROM unnest($1::int[]) AS c(app_id)
        WHERE EXISTS (SELECT 1 FROM app_card_classes k WHERE k.app_id = c.app_id)
       ON CONFLICT (app_id) DO UPDATE SET checked_at = to_timestamp(0)
        WHERE app_pricing.checked_at < now() - make_interval(secs => $2)
       RETURNING app_id`,
      [[...new Set(appIds)], APP_REQUEUE_COOLDOWN_SECONDS],
    );
    return rows.length;
  }

  async queueGroups(groupIds: number[]): Promise<number> {
    const unique = [...new Set(groupIds)];
    const fresh: { gid: string }[] = await this.dataSource.query(
      `SELECT gid FROM groups WHERE gid = ANY($1::bigint[]) AND refreshed_at > now() - make_interval(secs => $2)`,
      [unique, this.config.groups.refreshIntervalSeconds],
    );
    const skip = new Set(fresh.map((row) => Number(row.gid)));
    const stale = unique.filter((gid) => !skip.has(gid));
    if (!stale.length) return 0;
    await this.unavailableOnFault(() =>
      this.groupQueue.addBulk(
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
      ),
    );
    return stale.length;
  }

  async queueAccounts(accountIds: number[]): Promise<number> {
    const tracked: { account_id: number }[] = await this.dataSource.query(
      'SELECT account_id FROM accounts WHERE account_id = ANY($1::int[]) ORDER BY account_id',
      [[...new Set(accountIds)]],
    );
    const needed = tracked.length * CALLS_PER_ACCOUNT_UPDATE;
    const left = await this.budget.remaining();
    if (needed > left) {
      const nextDay = new Date();
      nextDay.setUTCHours(24, 0, 0, 0);
      throw tooManyRequests(
        `The platform's daily call budget has ${left} calls left; ${tracked.length} updates need up to ${needed}.`,
        (nextDay.getTime() - Date.now()) / 1000,
      );
    }
    let queued = 0;
    for (const { account_id: accountId } of tracked) {
      try {
        if (await this.accountUpdates.queueTrusted({ id: { accountId } }, false)) queued++;
      } catch (error) {
        // Within its cooldown: skipped, like an account already queued. Any other fault ends the request.
        if (!(error instanceof ProblemException && error.getStatus() === 429)) throw error;
      }
    }
    return queued;
  }

  private async unavailableOnFault<T>(add: () => Promise<T>): Promise<T> {
    try {
      return await add();
    } catch {
      throw serviceUnavailable('The update queue is unavailable; try again shortly.', 5);
    }
  }
}
