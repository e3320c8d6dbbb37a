import { timeCreatedOf } from './profile';
import { steamIdOf, type World } from './world';
import { Rng, Salt, hash, intIn } from '../random';
import type { Friend } from '../../client/platform.types';

/** Friendships that form after the epoch activate uniformly over this many ticks (~7.6 years of 1-minute ticks). */
export const FRIEND_HORIZON_TICKS = 4_000_000;
/** Share of edges that already exist at tick 0. */
const BASE_EDGE_PERCENT = 75;

export interface FriendGraphOptions {
  averageDegree?: number;
  hubCap?: number;
}

/**
 * The friend graph: a Chung-Lu random graph over Pareto(alpha 2.5) weights, which gives the heavy-tailed degrees
 * of a social network (most accounts have a handful of friends, hubs hundreds, capped at hubCap). Stored once as
 * CSR (Int32Array offsets + sorted neighbour ids), ~8 bytes per edge end, so a million accounts fit in tens of MB.
 * Each undirected edge {a,b} has an activation tick derived from hash(seed, min, max), which both endpoints
 * compute identically: the list stays symmetric at every tick while new friendships appear over time.
 */
export class FriendGraph {
  private readonly offsets: Int32Array;
  private readonly neighbours: Int32Array;

  constructor(
    private readonly w: World,
    opts: FriendGraphOptions = {},
  ) {
    const n = w.size;
    const avg = opts.averageDegree ?? 8;
    const cap = Math.max(1, Math.min(opts.hubCap ?? 500, n - 1));
    const rng = new Rng(hash(w.seed, Salt.graphWeight));
    const weights = new Float64Array(n);
    for (let i = 0; i < n; i++) weights[i] = Math.min(cap, (avg / 3) * (1 - rng.next()) ** (-1 / 1.5));
    const sample = aliasSampler(weights, rng);
    const edgeCount = n > 1 ? Math.round((n * avg) / 2) : 0;
    const from = new Int32Array(edgeCount);
    const to = new Int32Array(edgeCount);
    const degree = new Int32Array(n + 1);
    for (let e = 0; e < edgeCount; e++) {
      const a = sample();
      const b = sample();
      // Hubs are capped hard: an edge that would push either end past the cap is dropped (self-loops too).
      if (a === b || degree[a] >= cap || degree[b] >= cap) {
        from[e] = to[e] = -1;
        continue;
      }
      from[e] = a;
      to[e] = b;
      degree[a]++;
      degree[b]++;
    }
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + degree[i];
    const fill = offsets.slice(0, n);
    const adj = new Int32Array(offsets[n]);
    for (let e = 0; e < edgeCount; e++) {
      const a = from[e];
      const b = to[e];
      if (a < 0) continue;
      adj[fill[a]++] = b + 1;
      adj[fill[b]++] = a + 1;
    }
    // Sort each list and drop duplicate edges, compacting in place (the write cursor never passes the read one).
    let write = 0;
    for (let i = 0; i < n; i++) {
      const start = offsets[i];
      const end = offsets[i + 1];
      adj.subarray(start, end).sort();
      offsets[i] = write;
      for (let r = start; r < end; r++) if (r === start || adj[r] !== adj[r - 1]) adj[write++] = adj[r];
    }
    offsets[n] = write;
    this.offsets = offsets;
    this.neighbours = adj.slice(0, write);
  }

  /** Friends regardless of time (the graph at the end of the horizon). */
  degree(accountId: number): number {
    return this.offsets[accountId] - this.offsets[accountId - 1];
  }

  /** Tick at which the friendship {a,b} forms (<= 0: it predates the epoch). */
  activationTick(a: number, b: number): number {
    const h = hash(this.w.seed, Salt.edge, Math.min(a, b), Math.max(a, b));
    return h % 100 < BASE_EDGE_PERCENT ? 0 : 1 + ((h >>> 7) % FRIEND_HORIZON_TICKS);
  }

  /** Friend ids active at the tick, ascending. */
  friendIds(accountId: number, tick: number): number[] {
    const out: number[] = [];
    for (let r = this.offsets[accountId - 1]; r < this.offsets[accountId]; r++) {
      const other = this.neighbours[r];
      if (this.activationTick(accountId, other) <= tick) out.push(other);
    }
    return out;
  }

  friends(accountId: number, tick: number): Friend[] {
    return this.friendIds(accountId, tick).map((other) => ({
      steamId: steamIdOf(other),
      relationship: 'friend',
      friendSince: this.friendSince(accountId, other),
    }));
  }

  private friendSince(a: number, b: number): number {
    const activation = this.activationTick(a, b);
    if (activation > 0) return this.w.time.unixAt(activation);
    const created = Math.max(timeCreatedOf(this.w, a), timeCreatedOf(this.w, b));
    return intIn(hash(this.w.seed, Salt.edge, Math.min(a, b), Math.max(a, b), 1), created, this.w.time.epochSec - 1);
  }
}

/** Vose's alias method: O(n) build, O(1) per draw of an index with probability proportional to its weight. */
function aliasSampler(weights: Float64Array, rng: Rng): () => number {
  const n = weights.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i];
  const prob = new Float64Array(n);
  const alias = new Int32Array(n);
  const small = new Int32Array(n);
  const large = new Int32Array(n);
  let ns = 0;
  let nl = 0;
  for (let i = 0; i < n; i++) {
    prob[i] = (weights[i] * n) / total;
    if (prob[i] < 1) small[ns++] = i;
    else large[nl++] = i;
  }
  while (ns > 0 && nl > 0) {
    const s = small[--ns];
    const l = large[--nl];
    alias[s] = l;
    prob[l] = prob[l] + prob[s] - 1;
    if (prob[l] < 1) small[ns++] = l;
    else large[nl++] = l;
  }
  while (nl > 0) prob[large[--nl]] = 1;
  while (ns > 0) prob[small[--ns]] = 1;
  return () => {
    const x = rng.next() * n;
    const i = Math.floor(x);
    return x - i < prob[i] ? i : alias[i];
  };
}
