/** The BullMQ queue of account refreshes and its one job type. */
export const ACCOUNT_UPDATE_QUEUE = 'account-update';

export enum AccountUpdateJob {
  /** Refresh one account from the platform (`account.queueUpdate`). */
  Refresh = 'account.queueUpdate',
}

export interface AccountUpdatePayload {
  accountId: number;
  runId: string;
}

/**
 * One job per run. PostgreSQL's claim (`last_queue_status`) already keeps one run per account; the id names the run
 * too because the previous job of an account is still in Redis for a moment after the worker has written
 * `completed`, and BullMQ silently ignores an add whose id still exists: a per-account id lost the next run.
 */
export function accountUpdateJobId(accountId: number, runId: string): string {
  // BullMQ forbids ':' in custom ids.
  return `account-update-${accountId}-${runId}`;
}
