import { accountIdOf } from '../account-records/account.enums';
import { GroupPrivacy } from '../groups/group.enums';
import { GroupMembersResult } from '../platform/client/platform.types';

/** What one read of a group's members list stores (the `groups` row, but its first-seen and refresh times). */
export interface GroupRow {
  gid: number;
  privacy: GroupPrivacy;
  /** Null when the group could not be read (hidden or gone): its last known details are kept. */
  details: {
    name: string;
    vanity: string;
    avatar: string;
    memberCount: number;
    ownerSteamId: string | null;
    ownerAccountId: number | null;
  } | null;
}

const MAX_ACCOUNT_ID = 2_147_483_647;

/**
 * The row a read of page 1 of a group's members list gives, shared by the worker's group refresh and the seed.
 * Only page 1 is read: it carries the details, the member count and the owner (listed first); the members
 * themselves are known from the accounts' own group lists (`account_groups`), so the other pages (one per 1,000
 * members, thousands for the largest groups) would cost calls and add nothing. A hidden or deleted group has no
 * readable list: it is recorded as `hidden` (GroupPrivacy has no "deleted"), which keeps it off the board and out of
 * owned-group lists.
 */
export function groupRow(gid: number, page: GroupMembersResult): GroupRow {
  if (page.visibility !== 'public') return { gid, privacy: 'hidden', details: null };
  const owner = page.currentPage === 1 ? (page.members[0] ?? null) : null;
  const ownerAccountId = owner === null ? null : accountIdOf(owner);
  return {
    gid,
    // The list only tells listed groups from hidden ones; the membership type is on the HTML page, not read.
    privacy: 'public',
    details: {
      name: page.name,
      vanity: page.vanity,
      avatar: avatarFile(page.avatarIcon),
      memberCount: Math.min(page.memberCount, MAX_ACCOUNT_ID),
      ownerSteamId: owner,
      ownerAccountId: ownerAccountId !== null && ownerAccountId <= MAX_ACCOUNT_ID ? ownerAccountId : null,
    },
  };
}

/** The avatar's file name (`<hash>.jpg`) from its URL, as the wire's `avatar` shows it. */
function avatarFile(url: string): string {
  return url.split('?')[0].split('/').pop() ?? '';
}
