/** The BullMQ queue of group refreshes: one read of a group's members list, shared by every account in the group. */
export const GROUP_REFRESH_QUEUE = 'group-refresh';

export enum GroupRefreshJob {
  Refresh = 'group.refresh',
}

export interface GroupRefreshPayload {
  gid: number;
}

/** One job per group at a time: BullMQ ignores an add whose id is already queued or running. */
export function groupRefreshJobId(gid: number): string {
  return `group-${gid}`;
}
