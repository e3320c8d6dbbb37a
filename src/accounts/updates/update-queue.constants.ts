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

/** Pipeline steps in run order, as reported by `account.updateProgress`. */
export const UPDATE_STEPS = ['profile', 'bans', 'badges', 'games', 'friends', 'groups', 'inventory', 'save'] as const;
export type UpdateStepName = (typeof UPDATE_STEPS)[number];
