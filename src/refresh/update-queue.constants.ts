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

/** One job per account at a time: BullMQ ignores an add whose id is already queued or running. */
export function accountUpdateJobId(accountId: number): string {
  // BullMQ forbids ':' in custom ids.
  return `account-update-${accountId}`;
}
