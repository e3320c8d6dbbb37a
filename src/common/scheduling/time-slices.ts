/**
 * # Time slices
 *
 * Work that runs for seconds at a million accounts, on the event loop every request of the process shares (a changes
 * snapshot sorts and ranks every mover of a window), gives the loop back every SLICE_MS: a request arriving meanwhile
 * waits a slice, not the whole computation. The loops and sorts here check the clock every CHECK_EVERY elements (a
 * clock read per element would cost more than most elements' work) and yield with `pause` once the slice has run.
 * They return what Array's map, filter and sort return; a sort here is stable, like Array.prototype.sort.
 */
import { performance } from 'node:perf_hooks';

/** How long a slice runs before it gives the loop back: a few requests' worth of waiting, not a p99. */
export const SLICE_MS = 8;
/** Elements between two looks at the clock. */
const CHECK_EVERY = 1024;
/** Runs sorted by the engine's own sort before the merges (each well under a slice). */
const RUN = 4096;

/** Resolves on the loop's next turn, after the I/O callbacks waiting meanwhile. */
const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class TimeSlices {
  private sliceStart = performance.now();
  /** How many times the work gave the loop back (tests and logs). */
  pauses = 0;

  /** `run`: the length of the runs a sort starts from (smaller in tests, to merge more). */
  constructor(
    private readonly sliceMs = SLICE_MS,
    private readonly run = RUN,
  ) {}

  /** Gives the loop back when this slice has run its length. Call it between chunks of work, not per element. */
  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await pause();
    this.pauses++;
    this.sliceStart = performance.now();
  }

  /** `each(i)` for every i from 0 to n - 1, in order. */
  async forEach(n: number, each: (i: number) => void): Promise<void> {
    for (let from = 0; from < n; from += CHECK_EVERY) {
      const to = Math.min(n, from + CHECK_EVERY);
      for (let i = from; i < to; i++) each(i);
      await this.yieldIfDue();
    }
  }

  async map<T, U>(items: readonly T[], fn: (item: T, i: number) => U): Promise<U[]> {
    const out = new Array<U>(items.length);
    await this.forEach(items.length, (i) => (out[i] = fn(items[i], i)));
    return out;
  }

  async filter<T>(items: readonly T[], keep: (item: T, i: number) => boolean): Promise<T[]> {
    const out: T[] = [];
    await this.forEach(items.length, (i) => {
      if (keep(items[i], i)) out.push(items[i]);
    });
    return out;
  }

  /** `items` sorted by `compare` (in place, and returned): runs sorted natively, then merged pass by pass. */
  async sort<T>(items: T[], compare: (a: T, b: T) => number): Promise<T[]> {
    const n = items.length;
    for (let from = 0; from < n; from += this.run) {
      const run = items.slice(from, from + this.run).sort(compare);
      for (let i = 0; i < run.length; i++) items[from + i] = run[i];
      await this.yieldIfDue();
    }
    let [source, target] = [items, new Array<T>(n)];
    for (let width = this.run; width < n; width *= 2) {
      for (let left = 0; left < n; left += 2 * width) {
        await this.merge(source, target, left, Math.min(left + width, n), Math.min(left + 2 * width, n), compare);
      }
      [source, target] = [target, source];
    }
    if (source !== items) for (let i = 0; i < n; i++) items[i] = source[i];
    return items;
  }

  /** Merges source[left, middle) and source[middle, right) into target[left, right); ties keep the left one first. */
  private async merge<T>(source: T[], target: T[], left: number, middle: number, right: number, compare: (a: T, b: T) => number) {
    let [i, j, k] = [left, middle, left];
    while (k < right) {
      const end = Math.min(right, k + CHECK_EVERY);
      for (; k < end; k++) target[k] = j >= right || (i < middle && compare(source[i], source[j]) <= 0) ? source[i++] : source[j++];
      await this.yieldIfDue();
    }
  }
}
