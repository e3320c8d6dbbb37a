/**
 * Simulated time. The universe's state is a pure function of (seed, accountId, tick) with
 * tick = max(0, floor((clockMs - epochMs) / tickMs)); tick 0 is "the universe as generated", later ticks add
 * crafts, playtime and friendships. Rates are expressed per tick, so a smaller tickMs simply runs the world faster.
 */

/** Fixed default epoch (2025-01-01T00:00:00Z): the same seed and wall-clock time give the same universe. */
export const DEFAULT_EPOCH_MS = Date.UTC(2025, 0, 1);
export const DEFAULT_TICK_MS = 60_000;

/** The platform launched community profiles in 2003; nothing in the universe predates this. */
export const PLATFORM_START_SEC = Date.UTC(2003, 8, 12) / 1000;

export class TimeModel {
  readonly epochSec: number;

  constructor(
    readonly epochMs: number = DEFAULT_EPOCH_MS,
    readonly tickMs: number = DEFAULT_TICK_MS,
  ) {
    if (!(tickMs > 0)) throw new Error('tickMs must be positive');
    this.epochSec = Math.floor(epochMs / 1000);
  }

  /** Tick at a wall-clock instant; clamped to 0 before the epoch. */
  tickAt(clockMs: number): number {
    return Math.max(0, Math.floor((clockMs - this.epochMs) / this.tickMs));
  }

  /** Unix seconds at the start of a tick: timestamps of post-epoch events (crafts, friendships, play). */
  unixAt(tick: number): number {
    return Math.floor((this.epochMs + tick * this.tickMs) / 1000);
  }

  /** Number of ticks spanning the given wall-clock duration (at least 1). */
  ticksIn(ms: number): number {
    return Math.max(1, Math.ceil(ms / this.tickMs));
  }
}
