/** What a kept answer was computed from: a rank replica, or the population histograms' state. */
export interface Generations {
  readonly generation: number;
}

/**
 * Answers computed over a whole scope (a Lorenz curve, a bivariate table: O(accounts in the scope)), kept per key.
 * A kept answer is served as long as it comes from the replica being served; once the replica has changed since (its
 * `generation`) and the answer is older than `recomputeMs`, the read that notices starts one computation in the
 * background and is still served the kept answer, so a read never waits for a recomputation and a burst of updates
 * costs one computation per key and period. A completed update therefore shows within `recomputeMs` plus one
 * computation. Only a first read (or the first after a reload, a new replica object) waits, sharing the one
 * computation with any read meanwhile. At most `capacity` keys, the least recently computed dropped first.
 */
export class ScopeCache<T> {
  private readonly entries = new Map<string, { replica: Generations; generation: number; at: number; value: T }>();
  private readonly computing = new Map<string, Promise<T>>();

  constructor(
    private readonly recomputeMs: number,
    private readonly capacity = 512,
  ) {}

  get(replica: Generations, key: string, compute: () => T | Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (!kept || kept.replica !== replica) return this.compute(replica, key, compute);
    if (kept.generation !== replica.generation && Date.now() - kept.at >= this.recomputeMs) {
      // Failures of a background computation leave the kept answer (the next read past the period tries again).
      this.compute(replica, key, compute).catch(() => undefined);
    }
    return Promise.resolve(kept.value);
  }

  private compute(replica: Generations, key: string, compute: () => T | Promise<T>): Promise<T> {
    let running = this.computing.get(key);
    if (!running) {
      const [generation, at] = [replica.generation, Date.now()];
      running = Promise.resolve()
        .then(compute)
        .then((value) => {
          this.entries.delete(key);
          this.entries.set(key, { replica, generation, at, value });
          if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
          return value;
        })
        .finally(() => this.computing.delete(key));
      this.computing.set(key, running);
    }
    return running;
  }
}
