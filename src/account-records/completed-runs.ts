import { DataSource } from 'typeorm';
import { redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';

/**
 * What the update worker publishes on `completedRunsChannel` for each run it has committed: right after the writer's
 * transaction, before the ranks move and the run is announced complete. Every HTTP process's friend graph
 * (FriendGraphCache) reads that account's friendships again on hearing it, instead of asking PostgreSQL for completed
 * runs before every search, and its card replica (card-replica/) reads that account's card again.
 */
export interface CompletedRunMessage {
  runId: string;
  accountId: number;
  /** The run's `finished_at`, ms since the epoch. */
  finishedAt: number;
}

export function completedRunsChannel(config: Pick<AppConfig, 'redisPrefix'>): string {
  return redisKey(config, 'accounts', 'completed-runs');
}

/** The message as published, or null when it is not one (a stray publish on the channel). */
export function parseCompletedRun(raw: string): CompletedRunMessage | null {
  try {
    const message = JSON.parse(raw) as Partial<CompletedRunMessage> | null;
    const { runId, accountId, finishedAt } = message ?? {};
    if (typeof runId !== 'string' || !Number.isInteger(accountId) || !Number.isFinite(finishedAt)) return null;
    return { runId, accountId: accountId!, finishedAt: finishedAt! };
  } catch {
    return null;
  }
}

/** A completed run as `completedRunsSince` reads it. */
export interface CompletedRun {
  run_id: string;
  account_id: number;
  finished_at: Date;
}

/**
 * The runs completed after `since` (a range of ix_account_updates_completed): what a follower of the channel reads to
 * find the runs whose message it did not hear (the friend graph's and the card replica's sweeps).
 */
export function completedRunsSince(dataSource: DataSource, since: Date): Promise<CompletedRun[]> {
  return dataSource.query(`SELECT run_id, account_id, finished_at FROM account_updates WHERE status = 'completed' AND finished_at > $1`, [
    since,
  ]);
}
