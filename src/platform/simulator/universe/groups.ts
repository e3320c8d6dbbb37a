import { MAX_GROUPS, groupPool, writeGroupIds } from './profile';
import { ADJECTIVES, NOUNS } from './words';
import type { World } from './world';
import { Salt, hash, hex40, pick, unit } from '../random';

/** What the community group page shows about a group (its members-list XML without the members). */
export interface GroupTruth {
  gid: number;
  /** Hidden groups answer the members list with HTTP 403. */
  hidden: boolean;
  name: string;
  /** The group's custom URL name (`groupURL`). */
  vanity: string;
  headline: string;
  summary: string;
  avatarHash: string;
  memberCount: number;
  membersInChat: number;
  membersInGame: number;
  membersOnline: number;
}

const KINDS = ['Club', 'Traders', 'Collectors', 'Guild', 'Community', 'Clan', 'Society', 'Crew'] as const;

/**
 * The members of every group: the inverse of each account's group list (profile.ts), which is generated per
 * account and cannot be enumerated per group without visiting every account. So the directory visits them once,
 * on the first question about a group's members, and keeps the result as CSR in typed arrays (offsets per gid,
 * member account ids in ascending order): 4 bytes per membership, about 30 MB at 1,000,000 accounts (built in a
 * few seconds there). Groups never change with ticks, so it is never rebuilt.
 */
export class GroupDirectory {
  readonly pool: number;
  private offsets: Int32Array | null = null;
  private members: Int32Array | null = null;

  constructor(private readonly w: World) {
    this.pool = groupPool(w);
  }

  has(gid: number): boolean {
    return Number.isInteger(gid) && gid >= 1 && gid <= this.pool;
  }

  /** About 4% of groups are hidden; gid 1 (the most popular) never is, so a service can always name it as its own. */
  isHidden(gid: number): boolean {
    return gid !== 1 && hash(this.w.seed, Salt.groupDetails, gid) % 100 < 4;
  }

  /** Members ranked as the platform lists them: the owner first, then by account id. */
  membersOf(gid: number): number[] {
    const all = this.sortedMembers(gid);
    if (!all.length) return [];
    const owner = all[hash(this.w.seed, Salt.groupOwner, gid) % all.length];
    return [owner, ...all.filter((accountId) => accountId !== owner)];
  }

  memberCount(gid: number): number {
    return this.sortedMembers(gid).length;
  }

  details(gid: number): GroupTruth {
    const h = (k: number): number => hash(this.w.seed, Salt.groupDetails, gid, k);
    const adjective = pick(ADJECTIVES, h(1));
    const noun = pick(NOUNS, h(2));
    const kind = pick(KINDS, h(3));
    const memberCount = this.memberCount(gid);
    const online = Math.floor(memberCount * 0.2 * unit(h(4)));
    return {
      gid,
      hidden: this.isHidden(gid),
      name: `${adjective} ${noun} ${kind}`,
      vanity: `${adjective}${noun}${gid}`.toLowerCase().replace(/[^a-z0-9]/g, ''),
      headline: `The ${noun.toLowerCase()} ${kind.toLowerCase()} of the platform`,
      summary: `Welcome to ${adjective} ${noun} ${kind} & friends: trading, crafting and <b>badges</b>.`,
      avatarHash: hex40(this.w.seed, Salt.groupDetails, gid, 5),
      memberCount,
      membersInChat: Math.floor(online * 0.3 * unit(h(6))),
      membersInGame: Math.floor(online * unit(h(7))),
      membersOnline: online,
    };
  }

  private sortedMembers(gid: number): Int32Array {
    if (!this.has(gid)) return new Int32Array(0);
    this.build();
    return this.members!.subarray(this.offsets![gid - 1], this.offsets![gid]);
  }

  /**
   * One pass over the accounts collects (account, gid) pairs (accounts ascending), then a counting sort by gid lays
   * them out per group, each group's slice staying in account order.
   */
  private build(): void {
    if (this.offsets) return;
    const picks = new Int32Array(MAX_GROUPS);
    let accounts: Int32Array<ArrayBuffer> = new Int32Array(1 << 16);
    let gids: Int32Array<ArrayBuffer> = new Int32Array(1 << 16);
    let n = 0;
    for (let accountId = 1; accountId <= this.w.size; accountId++) {
      const k = writeGroupIds(this.w, accountId, picks);
      if (n + k > accounts.length) {
        accounts = grow(accounts, n);
        gids = grow(gids, n);
      }
      for (let i = 0; i < k; i++, n++) {
        accounts[n] = accountId;
        gids[n] = picks[i];
      }
    }
    const offsets = new Int32Array(this.pool + 1);
    for (let i = 0; i < n; i++) offsets[gids[i]]++;
    for (let gid = 1; gid <= this.pool; gid++) offsets[gid] += offsets[gid - 1];
    const members = new Int32Array(n);
    const next = offsets.slice(0, this.pool);
    for (let i = 0; i < n; i++) members[next[gids[i] - 1]++] = accounts[i];
    this.offsets = offsets;
    this.members = members;
  }
}

function grow(array: Int32Array, used: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array.subarray(0, used));
  return bigger;
}
