/**
 * What a feed entry says changed. Each projection picks the kinds it depends on; a new one (population statistics)
 * adds its own reader without touching the writers.
 */
export type ChangeKind =
  /** An update run committed: the account's row, badges, friends, inventory (its card and ranks with them). */
  | 'update-run'
  /** A donation added to the account's `donated` (its card). */
  | 'donation'
  /** A role granted or revoked (its card). */
  | 'role'
  /** An account row created (a lookup, the CLI, a first sign-in). */
  | 'account-added'
  /** account.updateSettings / updateVanity: `payload` says which of vanity, location, hidden changed. */
  | 'settings'
  /** The rank engine rebuilt its boards from PostgreSQL (rows written behind its back: a seed, a restore). */
  | 'ranks-rebuilt'
  /** `payload.keyId` revoked. */
  | 'api-key-revoked'
  /** `payload.sessionId` ended. */
  | 'session-revoked'
  /** Rows of the accounts written outside the service's writers (by hand, a repair): every copy reads them again. */
  | 'rows-changed'
  /** The pruner deleted every entry with `xid <= payload.through` (change-feed-pruner.ts). */
  | 'pruned';

/** An entry as a writer records it. */
export interface NewChange {
  kind: ChangeKind;
  accountIds?: number[];
  payload?: Record<string, unknown>;
}

/** An entry as the follower reads it. `xid` is the recording transaction's id; (xid, id) is its place in the feed. */
export interface FeedEntry {
  id: number;
  xid: number;
  kind: ChangeKind;
  accountIds: number[];
  payload: Record<string, unknown> | null;
}

/** The account ids of the entries of the given kinds, each once. */
export function accountsOf(entries: readonly FeedEntry[], kinds: (entry: FeedEntry) => boolean): number[] {
  const ids = new Set<number>();
  for (const entry of entries) if (kinds(entry)) for (const id of entry.accountIds) ids.add(id);
  return [...ids];
}
