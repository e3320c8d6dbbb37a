import type { FeedEntry } from './change-entry';

/**
 * State kept in a process's memory from PostgreSQL and in step through the feed (ChangeFeedFollower.attach). The
 * follower calls one method at a time: `load`, then `apply` for the entries committed while it loaded, then
 * `setLive(true)`; from then on `apply` for each batch read. A reload (`apply` answered 'reload', the feed no longer
 * reaching back, a failed load) begins with `setLive(false)`.
 */
export interface Projection {
  /** For logs and tests. */
  readonly name: string;
  /** Reads the whole state from PostgreSQL (nothing is answered from it until `setLive(true)`). */
  load(): Promise<void>;
  /**
   * Applies entries, in feed order. An entry may come again after a failure, or ahead of an older one (applied early,
   * FeedCursor), so an apply re-reads what the entry names rather than replaying a difference. Throws to have the
   * batch read and applied again at the next poll; 'reload' to be loaded again in full.
   */
  apply(entries: readonly FeedEntry[]): Promise<void | 'reload'>;
  /** True: loaded and caught up, answer from memory. False: a reload begins; drop what is held. */
  setLive(live: boolean): void;
}
