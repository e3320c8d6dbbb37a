/**
 * Bidirectional breadth-first search for the shortest friend paths between two accounts, over any source of
 * adjacency. Pure logic: the reads go through `neighbours`, one call per level, so the cost of a search is the number
 * of levels (at most `maxDepth`) and the friendships those levels hold, bounded by `maxEdges`.
 */

/**
 * The friends of each of `ids` (either direction of a stored friendship), and how many friendships that is. The
 * lists are in the order of the ids asked for, for as many of them as were read: all unless `limit` was passed. (An
 * array, not a Map by id: a search reads hundreds of lists a level, and a Map's set and gets cost it ~6 %.)
 */
export interface Neighbours {
  lists: (ArrayLike<number> & Iterable<number>)[];
  edges: number;
}

/**
 * The friends of each of `ids`, at most `limit` friendships in all: at once from memory (the search then runs to its
 * end without yielding, on the same two tables every time), or a promise from a store.
 */
export type NeighbourReader = (ids: number[], limit: number) => Neighbours | Promise<Neighbours>;

export interface FriendSearchOptions {
  /** Accounts no path may pass through (never the two ends). */
  exclude: ReadonlySet<number>;
  /** Longest path, in hops. */
  maxDepth: number;
  /** Friendships the search may read before it gives up. */
  maxEdges: number;
  /** Paths to list. */
  maxPaths: number;
}

export interface FriendSearchResult {
  /** The paths, `from` first, all of the shortest length; empty when none was found within the bounds. */
  paths: number[][];
  /** True when the search stopped at `maxEdges` before it could tell (then `paths` is empty). */
  exhausted: boolean;
  /** Friendships read and levels expanded (one read each): what the search cost. */
  edges: number;
  levels: number;
}

/** Slots a table starts with: a search at a million accounts reaches ~2,000 accounts per side at the median. */
const INITIAL_SLOTS = 8192;
/** Tables kept for the next searches, and the largest kept (a search deep in a hub-heavy region grows its own). */
const SPARE_TABLES = 16;
const LARGEST_KEPT = 1 << 16;

/**
 * The accounts one side of the search has reached, with their distance from its root and their neighbours one step
 * closer (parents): open addressing on typed arrays. A search at a million accounts reaches up to tens of thousands
 * of accounts and probes this once or twice per friendship read; Maps of that size cost several times as much.
 * Tables are reused from search to search (`take`, `release`): allocating and growing them from small took a third
 * of a search's time. The slots in use are listed, so clearing one and listing a level cost what was reached.
 */
class Reached {
  private static readonly spare: Reached[] = [];

  /** Account id + 1 per slot (0: empty), its distance and its first parent; further parents (rarer) in `more`. */
  private keys = new Uint32Array(INITIAL_SLOTS);
  private depths = new Int32Array(INITIAL_SLOTS);
  private firsts = new Int32Array(INITIAL_SLOTS);
  /** The slots in use, in the order they were taken. */
  private used = new Int32Array(INITIAL_SLOTS / 2);
  private readonly more = new Map<number, number[]>();
  private size = 0;

  static take(): Reached {
    return Reached.spare.pop() ?? new Reached();
  }

  /** Clears the table and keeps it for another search. */
  release(): void {
    for (let i = 0; i < this.size; i++) this.keys[this.used[i]] = 0;
    this.size = 0;
    this.more.clear();
    if (this.keys.length <= LARGEST_KEPT && Reached.spare.length < SPARE_TABLES) Reached.spare.push(this);
  }

  /** The account's distance from the root, or -1 when it was not reached. */
  depth(id: number): number {
    const mask = this.keys.length - 1;
    for (let slot = Math.imul(id, 0x9e3779b1) & mask; ; slot = (slot + 1) & mask) {
      const key = this.keys[slot];
      if (key === id + 1) return this.depths[slot];
      if (key === 0) return -1;
    }
  }

  /** Records an account not reached before (`parent` -1 for the root). */
  add(id: number, depth: number, parent: number): void {
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = Math.imul(id, 0x9e3779b1) & mask;
    while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
    this.keys[slot] = id + 1;
    this.depths[slot] = depth;
    this.firsts[slot] = parent;
    this.used[this.size++] = slot;
  }

  /** Another parent of an account reached at the same level. */
  addParent(id: number, parent: number): void {
    const list = this.more.get(id);
    if (list) list.push(parent);
    else this.more.set(id, [parent]);
  }

  parents(id: number): number[] {
    const mask = this.keys.length - 1;
    for (let slot = Math.imul(id, 0x9e3779b1) & mask; ; slot = (slot + 1) & mask) {
      const key = this.keys[slot];
      if (key === 0) return [];
      if (key === id + 1) return this.firsts[slot] < 0 ? [] : [this.firsts[slot], ...(this.more.get(id) ?? [])];
    }
  }

  /** The accounts reached at `depth`. */
  at(depth: number): number[] {
    const ids: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const slot = this.used[i];
      if (this.depths[slot] === depth) ids.push(this.keys[slot] - 1);
    }
    return ids;
  }

  private grow(): void {
    const { keys, depths, firsts, used, size } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.depths = new Int32Array(keys.length * 2);
    this.firsts = new Int32Array(keys.length * 2);
    this.used = new Int32Array(keys.length);
    const mask = this.keys.length - 1;
    for (let i = 0; i < size; i++) {
      const from = used[i];
      let slot = Math.imul(keys[from] - 1, 0x9e3779b1) & mask;
      while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
      this.keys[slot] = keys[from];
      this.depths[slot] = depths[from];
      this.firsts[slot] = firsts[from];
      this.used[i] = slot;
    }
  }
}

/** One end of the search: what it reached, its newest level (the frontier) and that level's distance. */
interface Side {
  reached: Reached;
  frontier: number[];
  depth: number;
}

function sideFrom(root: number): Side {
  const reached = Reached.take();
  reached.add(root, 0, -1);
  return { reached, frontier: [root], depth: 0 };
}

/**
 * Expands one whole level at a time on the side whose frontier is smaller, until the sides touch. The balls of both
 * sides were disjoint before the level that touched them, so every path is at least as long as the two depths
 * together, and every account the new level shares with the other side lies on a shortest path at exactly both
 * depths: the meeting layer, through which every shortest path passes.
 *
 * The paths are listed in the order of a search from `from` alone that walks back from `to`, always to the lowest
 * account id first (as FriendGraphService.paths does): the same answer as a full one-sided search, for any `maxPaths`.
 */
export async function findFriendPaths(
  from: number,
  to: number,
  options: FriendSearchOptions,
  neighbours: NeighbourReader,
): Promise<FriendSearchResult> {
  if (from === to) return { paths: [[from]], exhausted: false, edges: 0, levels: 0 };
  return expand(sideFrom(from), sideFrom(to), to, options, neighbours);
}

/**
 * The levels of findFriendPaths, until the sides touch or a bound is reached; then the tables go back. With a reader
 * that answers at once nothing here awaits, so they go back before the search returns. (A search that awaited each
 * level let other requests' searches start meanwhile, each on tables of its own, fresh and grown anew.)
 */
async function expand(
  source: Side,
  target: Side,
  to: number,
  options: FriendSearchOptions,
  neighbours: NeighbourReader,
): Promise<FriendSearchResult> {
  try {
    let edges = 0;
    let levels = 0;
    while (source.depth + target.depth < options.maxDepth && source.frontier.length && target.frontier.length) {
      const [side, other] = source.frontier.length <= target.frontier.length ? [source, target] : [target, source];
      // One friendship over the budget tells that the level does not fit, without reading the rest of it.
      const remaining = options.maxEdges - edges;
      const pending = neighbours(side.frontier, remaining + 1);
      const read = pending instanceof Promise ? await pending : pending;
      levels++;
      edges += read.edges;
      if (read.edges > remaining) return { paths: [], exhausted: true, edges, levels };
      const depth = side.depth + 1;
      const { reached } = side;
      // First only whether the level reaches the other side. The level that does is most often the largest of the
      // search, and of the accounts it reaches only those the sides share (the meeting layer) are ever needed: they
      // alone are recorded, not the thousands the level would otherwise add as a frontier nobody expands.
      const excluding = options.exclude.size > 0;
      let met = false;
      const { frontier } = side;
      for (let i = 0; i < read.lists.length; i++) {
        const a = frontier[i];
        const friends = read.lists[i];
        for (let k = 0; k < friends.length; k++) {
          const b = friends[k];
          if (other.reached.depth(b) < 0 || (excluding && options.exclude.has(b))) continue;
          // Reached by the other side, so never by this one (the sides would have met a level earlier): recorded
          // here first, then its further parents.
          met = true;
          if (reached.depth(b) < 0) reached.add(b, depth, a);
          else reached.addParent(b, a);
        }
      }
      side.depth = depth;
      if (met) return { paths: listPaths(source, target, to, options.maxPaths), exhausted: false, edges, levels };
      // Otherwise the level is the side's next frontier (its lists are in the CPU's caches from the pass above).
      const next: number[] = [];
      for (let i = 0; i < read.lists.length; i++) {
        const a = frontier[i];
        const friends = read.lists[i];
        for (let k = 0; k < friends.length; k++) {
          const b = friends[k];
          if (excluding && options.exclude.has(b)) continue;
          const known = reached.depth(b);
          if (known < 0) {
            reached.add(b, depth, a);
            next.push(b);
          } else if (known === depth) reached.addParent(b, a);
        }
      }
      side.frontier = next;
    }
    return { paths: [], exhausted: false, edges, levels };
  } finally {
    source.reached.release();
    target.reached.release();
  }
}

/**
 * Up to `limit` shortest paths through the meeting layer (accounts at both sides' full depth), walking back from
 * `to`: on the target's side, an account's predecessors are the accounts one level farther from `to` that lie on a
 * shortest path and have it as a parent; from the meeting layer on, the source side's parents.
 */
function listPaths(source: Side, target: Side, to: number, limit: number): number[][] {
  const towardSource = new Map<number, number[]>();
  let layer = target.reached.at(target.depth).filter((id) => source.reached.depth(id) === source.depth);
  for (let depth = target.depth; depth > 0; depth--) {
    const below = new Set<number>();
    for (const id of layer)
      for (const parent of target.reached.parents(id)) {
        const list = towardSource.get(parent);
        if (list) list.push(id);
        else towardSource.set(parent, [id]);
        below.add(parent);
      }
    layer = [...below];
  }
  const predecessors = (id: number): number[] => {
    const list = towardSource.get(id) ?? source.reached.parents(id);
    return [...list].sort((x, y) => x - y);
  };
  const paths: number[][] = [];
  const walk = (id: number, suffix: number[]): void => {
    if (paths.length >= limit) return;
    const previous = predecessors(id);
    if (!previous.length) {
      paths.push([id, ...suffix]);
      return;
    }
    for (const p of previous) walk(p, [id, ...suffix]);
  };
  walk(to, []);
  return paths;
}
