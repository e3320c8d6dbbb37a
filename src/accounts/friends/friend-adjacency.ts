/**
 * The stored friend graph held in memory, undirected: accounts a and b are friends when either one's stored list
 * names the other (a private list is never read, so its friendships are known from the other side only).
 *
 * Compressed sparse rows over typed arrays: an account's list is its length followed by its friends' account ids,
 * ascending, at the position its index answers (`lists[start]` friends from `lists[start + 1]`). A search reads a list
 * in two cache misses at a million accounts, the index's slot and the list itself, where a table of offsets beside
 * the index made it three or four (docs/performance-history.md, "The friend search's cache misses"). About 8 bytes
 * per friendship and 24 per account (a million accounts with ~3.3 million friendships: ~50 MB, off the JS heap).
 * Lists changed since the arrays were built live in `changed` until there are enough of them to fold in (`compacted`).
 */
import type { NeighbourReader } from './friend-search';
import { IdIndex } from '../../common/collections/id-index';
import { TimeSlices } from '../../common/scheduling/time-slices';

const NONE = new Int32Array(0);

/** Stored friendship rows (account, friend), appended as they are read. */
export class FriendRows {
  accounts: Int32Array;
  friends: Int32Array;
  length = 0;

  constructor(expected = 1024) {
    this.accounts = new Int32Array(Math.max(16, expected));
    this.friends = new Int32Array(Math.max(16, expected));
  }

  push(account: number, friend: number): void {
    if (this.length === this.accounts.length) {
      const grown = (from: Int32Array) => {
        const to = new Int32Array(from.length * 2);
        to.set(from);
        return to;
      };
      this.accounts = grown(this.accounts);
      this.friends = grown(this.friends);
    }
    this.accounts[this.length] = account;
    this.friends[this.length++] = friend;
  }
}

export class FriendAdjacency {
  /** Friend lists replaced since the arrays were built (ascending, like the arrays' lists). */
  private readonly changed = new Map<number, Int32Array>();

  private constructor(
    /** Account id → the position of its list in `lists`. */
    private readonly index: IdIndex,
    private readonly ids: Int32Array,
    private readonly lists: Int32Array,
  ) {}

  /** Builds the graph from stored rows (either direction, duplicates and self-friendships allowed). */
  static async fromRows(rows: FriendRows): Promise<FriendAdjacency> {
    const { accounts, friends: named, length } = rows;
    // Millions of rows at a million accounts (the API's boot, each compaction): built in slices (time-slices.ts), so
    // that the process's requests go on meanwhile.
    const slices = new TimeSlices();
    // About one account per six rows; the index grows if there are more.
    const index = new IdIndex(Math.max(1024, length >> 3));
    const from = new Int32Array(length);
    const to = new Int32Array(length);
    await slices.forEach(length, (k) => {
      from[k] = index.add(accounts[k]);
      to[k] = index.add(named[k]);
    });
    const n = index.size;
    const ids = new Int32Array(n);
    const offsets = new Int32Array(n + 1);
    await slices.forEach(length, (k) => {
      ids[from[k]] = accounts[k];
      ids[to[k]] = named[k];
      if (from[k] === to[k]) return;
      offsets[from[k] + 1]++;
      offsets[to[k] + 1]++;
    });
    for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
    const fill = offsets.slice(0, n);
    const list = new Int32Array(offsets[n]);
    await slices.forEach(length, (k) => {
      if (from[k] === to[k]) return;
      list[fill[from[k]]++] = named[k];
      list[fill[to[k]]++] = accounts[k];
    });
    // Each list sorted and without duplicates (most friendships are stored from both sides), compacted in place:
    // the write cursor never passes the read one.
    let write = 0;
    await slices.forEach(n, (i) => {
      const start = offsets[i];
      const end = offsets[i + 1];
      list.subarray(start, end).sort();
      offsets[i] = write;
      for (let r = start; r < end; r++) if (r === start || list[r] !== list[r - 1]) list[write++] = list[r];
    });
    offsets[n] = write;
    // Each list behind its length, at its account's index + its offset.
    const lists = new Int32Array(n + write);
    const startOf = (i: number) => offsets[i] + i;
    await slices.forEach(n, (i) => {
      const start = startOf(i);
      lists[start] = offsets[i + 1] - offsets[i];
      for (let from = offsets[i], to = start + 1; from < offsets[i + 1]; from++, to++) lists[to] = list[from];
    });
    index.remap(startOf);
    return new FriendAdjacency(index, ids, lists);
  }

  /**
   * What a search reads: each level straight from the arrays, answered at once (not as a promise), so a whole search
   * runs without yielding and sees one state of the graph, never an update half applied.
   */
  readonly read: NeighbourReader = (ids, limit) => {
    const lists: Int32Array[] = [];
    let edges = 0;
    for (const id of ids) {
      const friends = this.friendsOf(id);
      lists.push(friends);
      edges += friends.length;
      if (edges > limit) break;
    }
    return { lists, edges };
  };

  /** The account's friends, ascending (empty for an account nobody's list names). */
  friendsOf(id: number): Int32Array {
    const changed = this.changed.size ? this.changed.get(id) : undefined;
    return changed ?? this.baseList(id);
  }

  /**
   * Sets the account's friends to what the stored rows now say (both directions), and the other side of every
   * friendship gained or lost with it: only rows naming the account can change its friendships.
   */
  replace(id: number, friends: Iterable<number>): void {
    const next = Int32Array.from(new Set(friends)).filter((friend) => friend !== id);
    next.sort();
    const previous = this.friendsOf(id);
    const gained = next.filter((friend) => !has(previous, friend));
    const lost = previous.filter((friend) => !has(next, friend));
    if (!gained.length && !lost.length) return;
    this.changed.set(id, next);
    for (const friend of gained) {
      const list = this.friendsOf(friend);
      const at = lowerBound(list, id);
      const grown = new Int32Array(list.length + 1);
      grown.set(list.subarray(0, at));
      grown[at] = id;
      grown.set(list.subarray(at), at + 1);
      this.changed.set(friend, grown);
    }
    for (const friend of lost)
      this.changed.set(
        friend,
        this.friendsOf(friend).filter((other) => other !== id),
      );
  }

  /** How many lists were replaced since the arrays were built. */
  get changedLists(): number {
    return this.changed.size;
  }

  /** Accounts (tracked or only named by a list), friendships (each once) and the bytes the arrays take. */
  stats(): { accounts: number; friendships: number; bytes: number } {
    let entries = this.lists.length - this.ids.length;
    for (const [id, list] of this.changed) entries += list.length - this.baseList(id).length;
    const accounts = this.ids.length + [...this.changed.keys()].filter((id) => this.index.get(id) < 0).length;
    const bytes = this.index.bytes + this.ids.byteLength + this.lists.byteLength;
    return { accounts, friendships: entries / 2, bytes };
  }

  /** The same graph with the replaced lists folded into fresh arrays. */
  async compacted(): Promise<FriendAdjacency> {
    const rows = new FriendRows(this.lists.length + 1024);
    const emit = (id: number) => {
      for (const friend of this.friendsOf(id)) if (id < friend) rows.push(id, friend);
    };
    await new TimeSlices().forEach(this.ids.length, (i) => emit(this.ids[i]));
    for (const id of this.changed.keys()) if (this.index.get(id) < 0) emit(id);
    return FriendAdjacency.fromRows(rows);
  }

  private baseList(id: number): Int32Array {
    const start = this.index.get(id);
    return start < 0 ? NONE : this.lists.subarray(start + 1, start + 1 + this.lists[start]);
  }
}

/** The first position in an ascending list whose value is ≥ `value`. */
function lowerBound(list: Int32Array, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function has(list: Int32Array, value: number): boolean {
  const at = lowerBound(list, value);
  return at < list.length && list[at] === value;
}
