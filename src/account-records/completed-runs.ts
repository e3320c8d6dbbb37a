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
