import type { RankReplica } from '../ranks/replica/rank-replica';

/**
 * Answers computed over a whole scope (a Lorenz curve, a bivariate table: O(accounts in the scope)), kept per key and
 * computed again only when the replica changed since (its `generation`) and the kept answer is older than
 * `recomputeMs`: a burst of updates costs one computation per key per period, not one per read, and a completed
 * update shows within that period. A reloaded replica (a new object) invalidates everything. At most `capacity` keys,
 * the least recently computed dropped first.
 */
export class ScopeCache<T> {
  private readonly entries = new Map<string, { replica: RankReplica; generation: number; at: number; value: T }>();

  constructor(
    private readonly recomputeMs: number,
    private readonly capacity = 512,
  ) {}

  get(replica: RankReplica, key: string, compute: () => T): T {
    const kept = this.entries.get(key);
    const now = Date.now();
    if (kept && kept.replica === replica && (kept.generation === replica.generation || now - kept.at < this.recomputeMs)) return kept.value;
    const generation = replica.generation;
    const value = compute();
    this.entries.delete(key);
    this.entries.set(key, { replica, generation, at: now, value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
