import type { FeedEntry } from './change-entry';

/** A place in the feed: every entry ordered at or before (xid, id) is applied. (h, 0) means every entry with xid < h. */
export interface FeedPosition {
  xid: number;
  id: number;
}

/** One read of the feed: the entries after the cursor's position in (xid, id) order, in the snapshot of `horizon`. */
export interface FeedRead {
  entries: FeedEntry[];
  /** The read's `txid_snapshot_xmin`: every transaction with a smaller id had ended when it was taken. */
  horizon: number;
  /** Whether the read stopped at its limit (more entries follow). */
  truncated: boolean;
  /** The newest pruning's `through` (null: never pruned): entries with xid <= it are gone. */
  pruned: number | null;
}

/** A read's entries to apply (in feed order), the cursor once they are, and whether that is all the read saw. */
export type CursorStep = { gone: true } | { gone: false; apply: FeedEntry[]; next: FeedCursor; complete: boolean };

/**
 * The follower's pure logic (positions, horizons, gaps), unit-tested on its own (test/unit/feed-cursor.spec.ts).
 *
 * Entry ids come from a sequence when the row is inserted, but transactions commit in another order, so "every id
 * after the last one read" would skip an entry whose transaction commits late (a gap that fills later). Instead an
 * entry is *final* once its transaction's id is below the read's horizon (`txid_snapshot_xmin`): every such transaction
 * has ended, so no entry will ever appear before it; final entries are applied in (xid, id) order and the position
 * moves past them. An entry above the horizon is committed (the read sees it) but an older transaction may still add
 * entries before it: it is applied at once (*early*: latency does not wait for a slow neighbour) and remembered, so
 * that it is not applied again when it becomes final. Projections re-read the state an entry names, so an entry
 * applied out of order, or twice after a failure, is harmless.
 */
export class FeedCursor {
  constructor(
    readonly position: FeedPosition,
    /** Ids of the entries applied early (above the horizon when read), not final yet. */
    private readonly early: ReadonlySet<number> = new Set(),
  ) {}

  /** The cursor of a projection loaded from a snapshot with this horizon: the entries after it are still to apply. */
  static at(horizon: number): FeedCursor {
    return new FeedCursor({ xid: horizon, id: 0 });
  }

  get earlyCount(): number {
    return this.early.size;
  }

  /** Whether the feed still holds every entry after this position (a pruning did not take some). */
  reaches(pruned: number | null): boolean {
    return pruned === null || this.position.xid > pruned;
  }

  step(read: FeedRead): CursorStep {
    if (!this.reaches(read.pruned)) return { gone: true };
    const early = new Set(this.early);
    const apply: FeedEntry[] = [];
    let position = this.position;
    for (const entry of read.entries) {
      if (entry.xid < read.horizon) {
        position = { xid: entry.xid, id: entry.id };
        if (!early.delete(entry.id)) apply.push(entry);
      } else if (!early.has(entry.id)) {
        early.add(entry.id);
        apply.push(entry);
      }
    }
    // Read to the end: every entry below the horizon is applied, not only those up to the last one read.
    if (!read.truncated && read.horizon > position.xid) position = { xid: read.horizon, id: 0 };
    return { gone: false, apply, next: new FeedCursor(position, early), complete: !read.truncated };
  }
}
