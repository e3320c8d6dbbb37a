/**
 * The column boards of the rank engine, held in memory: every refreshed account's cell and scores, and per (column,
 * scope) a RankedSet of the accounts scoring above 0 there. It answers an account's ranks and totals in its five
 * scopes on every column board as the engine's profile script does (profile-ranks.lua.ts), without a round trip.
 *
 * It holds the same facts as the engine's sets (an account is on the boards once refreshed; a score of 0 is unranked,
 * rank 0; the totals are the scopes' populations), so the two answer alike at every moment
 * they have seen the same placements; the rank-engine suite compares the profile with a recomputation.
 */
import { IdIndex } from '../../common/collections/id-index';
import { TimeSlices } from '../../common/scheduling/time-slices';
import { ColumnRanks } from '../column-ranks';
import { SCOPE_LEVELS, scopeKeysOf } from '../rank-scopes';
import { boardOrder } from './board-order';
import { RankedSet } from './ranked-set';

/** One account as the engine places it: its cell and its score on each column, in the replica's column order. */
export interface PlacedAccount {
  accountId: number;
  cell: string;
  scores: number[];
}

/** A board of the replica (RankReplica.board). */
export interface ReplicaBoard {
  /** Accounts scoring above 0. */
  scored(): number;
  /** How many of them rank ahead of (score, accountId): higher score, or equal score and lower id. */
  countAhead(score: number, accountId: number): number;
}

/**
 * One column's values in one scope, for population statistics (src/analytics): the scope's population (accounts
 * scoring 0 included) and its RankedSet of the accounts scoring above 0, highest first.
 */
export interface ReplicaScope {
  /** Accounts on the boards in the scope, zeros included. */
  population: number;
  /** Accounts scoring above 0. */
  scored: number;
  /** Their scores added up. */
  sum: number;
  /** The score with `ahead` scored accounts before it (0 the highest); 0 past the scored ones. */
  scoreAt(ahead: number): number;
  /** How many accounts score at least `score` (above 0). */
  countAtLeast(score: number): number;
  /** Each score above 0, highest first. */
  forEachScore(visit: (score: number) => void): void;
}

const NO_SCOPE = -1;
const EMPTY = new RankedSet();

export class RankReplica {
  private readonly index = new IdIndex(1024);
  private ids = new Uint32Array(1024);
  private cellOfSlot = new Int32Array(1024);
  /** slot × column. */
  private scores: Uint32Array;
  private readonly cellIds = new Map<string, number>();
  /** Per cell, its scope id on each level (NO_SCOPE where it has none). */
  private readonly cellScopes: Int32Array[] = [];
  private readonly scopeIds = new Map<string, number>();
  private readonly populations: number[] = [];
  /** column × scope. */
  private readonly sets: RankedSet[][];
  /** Counts the placements that changed anything: caches of whole-scope computations are keyed by it. */
  generation = 0;

  constructor(readonly columns: readonly string[]) {
    this.scores = new Uint32Array(1024 * columns.length);
    this.sets = columns.map(() => []);
  }

  /** A replica of every account in `accounts` (any order): `add` each, then `fillSets`. */
  static async build(columns: readonly string[], accounts: Iterable<PlacedAccount>): Promise<RankReplica> {
    const replica = new RankReplica(columns);
    for (const account of accounts) replica.add(account);
    await replica.fillSets();
    return replica;
  }

  /** Enters an account during a bulk load, before `fillSets` (an account added twice is a caller's error). */
  add(account: PlacedAccount): void {
    const slot = this.newSlot(account.accountId);
    const cell = this.cellId(account.cell);
    this.cellOfSlot[slot] = cell;
    for (const scope of this.cellScopes[cell]) if (scope !== NO_SCOPE) this.populations[scope]++;
    for (let c = 0; c < this.columns.length; c++) this.scores[slot * this.columns.length + c] = account.scores[c];
  }

  get accounts(): number {
    return this.index.size;
  }

  /** Bytes of the typed arrays (the index, the per-account arrays, every set's blocks). */
  get bytes(): number {
    const sets = this.sets.reduce((sum, byScope) => sum + byScope.reduce((s, set) => s + set.bytes, 0), 0);
    return this.index.bytes + this.ids.byteLength + this.cellOfSlot.byteLength + this.scores.byteLength + sets;
  }

  /** Puts an account where its stored row says it belongs (what RankEngine.place writes to the sets). */
  place(account: PlacedAccount): void {
    const known = this.index.get(account.accountId);
    const slot = known < 0 ? this.newSlot(account.accountId) : known;
    const id = account.accountId;
    const columns = this.columns.length;
    const before = known < 0 ? null : this.cellScopes[this.cellOfSlot[slot]];
    const cell = this.cellId(account.cell);
    const after = this.cellScopes[cell];
    for (let c = 0; c < columns; c++) {
      const old = known < 0 ? 0 : this.scores[slot * columns + c];
      const score = account.scores[c];
      if (old === score && before === after) continue;
      this.generation++;
      if (before && old > 0) for (const scope of before) if (scope !== NO_SCOPE) this.sets[c][scope].delete(old, id);
      if (score > 0) for (const scope of after) if (scope !== NO_SCOPE) this.setOf(c, scope).insert(score, id);
      this.scores[slot * columns + c] = score;
    }
    if (before !== after) {
      this.generation++;
      if (before) for (const scope of before) if (scope !== NO_SCOPE) this.populations[scope]--;
      for (const scope of after) if (scope !== NO_SCOPE) this.populations[scope]++;
      this.cellOfSlot[slot] = cell;
    }
  }

  /**
   * The account's ranks on every column (ColumnRanks: in the order global, region, country, state, city, 0 where it
   * has no such location or where it scores 0: a zero value is unranked); totals are the scopes'
   * populations. Null when the account is not on the boards (never refreshed).
   */
  columnRanks(accountId: number): ColumnRanks | null {
    const slot = this.index.get(accountId);
    if (slot < 0) return null;
    const scopes = this.cellScopes[this.cellOfSlot[slot]];
    const levels = scopes.length;
    const totals = new Int32Array(levels);
    for (let l = 0; l < levels; l++) totals[l] = scopes[l] === NO_SCOPE ? 0 : this.populations[scopes[l]];
    const columns = this.columns.length;
    const ranks = new Int32Array(columns * levels);
    for (let c = 0; c < columns; c++) {
      const score = this.scores[slot * columns + c];
      const sets = this.sets[c];
      for (let l = 0; l < levels; l++) {
        const scope = scopes[l];
        if (scope === NO_SCOPE) continue;
        if (score !== 0) ranks[c * levels + l] = sets[scope].countAhead(score, accountId) + 1;
      }
    }
    return new ColumnRanks(this.columns, ranks, totals);
  }

  /**
   * One column's board in one scope (a scope key of scopeKeysOf: `g` the global board) as the engine's sorted set
   * holds it: how many accounts score above 0 there, and how many rank ahead of any (score, account id). Null when
   * the replica has no such column or scope.
   */
  board(column: string, scopeKey: string): ReplicaBoard | null {
    const c = this.columns.indexOf(column);
    const scope = this.scopeIds.get(scopeKey);
    if (c < 0 || scope === undefined) return null;
    // Looked up on each call: the scope's set is created by the first account placed there.
    const sets = this.sets[c];
    return {
      scored: () => sets[scope]?.size ?? 0,
      countAhead: (score, accountId) => sets[scope]?.countAhead(score, accountId) ?? 0,
    };
  }

  /** A column's values in one scope (a scope key of scopeKeysOf), or null when the replica has no such column or scope. */
  scope(column: string, scopeKey: string): ReplicaScope | null {
    const c = this.columns.indexOf(column);
    const scope = this.scopeIds.get(scopeKey);
    if (c < 0 || scope === undefined) return null;
    const set = this.sets[c][scope] ?? EMPTY;
    return {
      population: this.populations[scope],
      scored: set.size,
      sum: set.sum,
      scoreAt: (ahead) => set.scoreAt(ahead),
      countAtLeast: (score) => set.countAtLeast(score),
      forEachScore: (visit) => set.forEachScore(visit),
    };
  }

  /** The scope keys the replica knows with a prefix (`c:` the countries, `r:` the regions), populated ones only. */
  scopeKeys(prefix: string): string[] {
    return [...this.scopeIds].filter(([key, id]) => key.startsWith(prefix) && this.populations[id] > 0).map(([key]) => key);
  }

  /** The account's score on the column at `column` (an index of `columns`); null when it is not on the boards. */
  scoreOf(accountId: number, column: number): number | null {
    const slot = this.index.get(accountId);
    return slot < 0 ? null : this.scores[slot * this.columns.length + column];
  }

  /** The account's scores in `columns` order, when it is on the boards and in the scope; null otherwise. */
  scoresIn(accountId: number, scopeKey: string): number[] | null {
    const slot = this.index.get(accountId);
    const scope = this.scopeIds.get(scopeKey);
    if (slot < 0 || scope === undefined || !this.cellScopes[this.cellOfSlot[slot]].includes(scope)) return null;
    const columns = this.columns.length;
    return Array.from(this.scores.subarray(slot * columns, (slot + 1) * columns));
  }

  /**
   * The accounts held in slots [from, to) that live in the scope (zeros included), each with its scores on two columns:
   * O(to − from), for whole-scope computations cached across many reads (src/analytics, the bivariate tables), which
   * walk `accounts` slots a range at a time between turns of the event loop. False when there is no such column or scope.
   */
  forEachPair(
    scopeKey: string,
    xColumn: string,
    yColumn: string,
    from: number,
    to: number,
    visit: (x: number, y: number) => void,
  ): boolean {
    const x = this.columns.indexOf(xColumn);
    const y = this.columns.indexOf(yColumn);
    const scope = this.scopeIds.get(scopeKey);
    if (x < 0 || y < 0 || scope === undefined) return false;
    const columns = this.columns.length;
    const { scores, cellOfSlot, cellScopes } = this;
    const end = Math.min(to, this.index.size);
    for (let slot = from; slot < end; slot++) {
      if (cellScopes[cellOfSlot[slot]].includes(scope)) visit(scores[slot * columns + x], scores[slot * columns + y]);
    }
    return true;
  }

  /** A slot for an account the replica does not hold yet (its cell and scores are the caller's to set). */
  private newSlot(accountId: number): number {
    const slot = this.index.add(accountId);
    if (slot >= this.ids.length) this.grow();
    this.ids[slot] = accountId;
    return slot;
  }

  /**
   * Each column's sets from the added accounts: one sort per column (boardOrder), then each scope's share in that
   * order. In slices (time-slices.ts): at a million accounts a column's steps held the event loop 0.1–0.3 s each.
   */
  async fillSets(): Promise<void> {
    const slices = new TimeSlices();
    const columns = this.columns.length;
    const slots = this.index.size;
    const { ids } = this;
    const score = new Uint32Array(slots);
    for (let c = 0; c < columns; c++) {
      await slices.forEach(slots, (slot) => (score[slot] = this.scores[slot * columns + c]));
      const order = await boardOrder(score, ids, slots, slices);
      // Each scope's share of the order, in that order: sized first, then filled.
      const sizes = new Uint32Array(this.populations.length);
      await slices.forEach(order.length, (k) => {
        const scopes = this.cellScopes[this.cellOfSlot[order[k]]];
        for (let level = 0; level < scopes.length; level++) if (scopes[level] !== NO_SCOPE) sizes[scopes[level]]++;
      });
      const shares = Array.from(sizes, (size) => new Uint32Array(size));
      const filled = new Uint32Array(sizes.length);
      await slices.forEach(order.length, (k) => {
        const scopes = this.cellScopes[this.cellOfSlot[order[k]]];
        for (let level = 0; level < scopes.length; level++) {
          const scope = scopes[level];
          if (scope !== NO_SCOPE) shares[scope][filled[scope]++] = order[k];
        }
      });
      for (let scope = 0; scope < shares.length; scope++) {
        if (!shares[scope].length) continue;
        this.sets[c][scope] = RankedSet.fromSorted(score, ids, shares[scope]);
        await slices.yieldIfDue();
      }
    }
  }

  private cellId(cell: string): number {
    let id = this.cellIds.get(cell);
    if (id === undefined) {
      id = this.cellScopes.length;
      this.cellIds.set(cell, id);
      const keys = scopeKeysOf(cell);
      this.cellScopes.push(Int32Array.from(SCOPE_LEVELS, (level) => (keys[level] === undefined ? NO_SCOPE : this.scopeId(keys[level]))));
    }
    return id;
  }

  private scopeId(key: string): number {
    let id = this.scopeIds.get(key);
    if (id === undefined) {
      id = this.populations.length;
      this.scopeIds.set(key, id);
      this.populations.push(0);
    }
    return id;
  }

  private setOf(column: number, scope: number): RankedSet {
    return (this.sets[column][scope] ??= new RankedSet());
  }

  private grow(): void {
    const grown = <T extends Uint32Array | Int32Array>(from: T, length: number): T => {
      const to = new (from.constructor as new (n: number) => T)(length);
      to.set(from);
      return to;
    };
    const capacity = this.ids.length * 2;
    this.ids = grown(this.ids, capacity);
    this.cellOfSlot = grown(this.cellOfSlot, capacity);
    this.scores = grown(this.scores, capacity * this.columns.length);
  }
}
