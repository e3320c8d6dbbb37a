/**
 * # Write-behind batches
 *
 * Collects small writes and hands them to `write` together: `delayMs` after the first one waits, or at once when
 * `maxItems` wait. A hot per-request write (a profile view) then costs its request an array push, and Redis one
 * command per batch instead of one per request. What waits is written within `delayMs`; readers that must see
 * every write made so far in this process call `flush` first. A process that stops flushes (its owner's shutdown
 * hook); one that dies loses at most `delayMs` of writes.
 */
export class WriteBehind<T> {
  private waiting: { items: T[]; timer: NodeJS.Timeout; settle: (written: Promise<void>) => void; written: Promise<void> } | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly delayMs: number,
    private readonly maxItems: number,
  ) {}

  /** Queues `item`; resolves (or rejects) with the write of its batch. */
  add(item: T): Promise<void> {
    const batch = this.waiting ?? (this.waiting = this.open());
    batch.items.push(item);
    if (batch.items.length >= this.maxItems) void this.flush();
    return batch.written;
  }

  /** Starts the write of what waits; resolves once it and every write before it have finished (failed ones too). */
  flush(): Promise<void> {
    const batch = this.waiting;
    if (batch) {
      this.waiting = null;
      clearTimeout(batch.timer);
      const written = this.write(batch.items);
      batch.settle(written);
      this.inFlight.add(written);
      const done = () => void this.inFlight.delete(written);
      written.then(done, done);
    }
    return Promise.allSettled([...this.inFlight]).then(() => undefined);
  }

  private open() {
    let settle!: (written: Promise<void>) => void;
    const written = new Promise<void>((resolve) => (settle = resolve));
    // Unreferenced: a batch waiting must not keep a process alive (stopping flushes it).
    const timer = setTimeout(() => void this.flush(), this.delayMs).unref();
    return { items: [] as T[], timer, settle, written };
  }
}
