/**
 * # The verified-key cache
 *
 * Verifying an API key used to cost a PostgreSQL query per request. Each API process now keeps the keys it has
 * verified lately in memory (`ApiKeyCache`: bounded, least recently used first out, each entry for a short TTL), and
 * revocations reach every process through the change feed (`CredentialRevocations`, ../revocations/). The rule that
 * matters: **a revoked key is served from no cache more than KEY_CACHE_SYNC_MS (3 s) after its revocation
 * committed** (in practice, the nudge's few milliseconds). How it holds:
 *
 * 1. The revoker commits `revoked_at` and its feed entry together, evicts the key from its own cache at once, and
 *    nudges every process; each evicts the key when its follower reads the entry (at once when nudged, else at its
 *    next poll, within a second).
 * 2. `trusted`: the cache answers (and takes fills) only while this process's follower has completed, within
 *    KEY_CACHE_SYNC_MS, a poll begun after any revocation it has not applied. A poll applies every entry committed
 *    before it began, so a key revoked at time c is evicted by the first poll begun after c; while no such poll has
 *    completed, the last completed one began before c, and the cache is trusted at most KEY_CACHE_SYNC_MS after it.
 *    A process behind (PostgreSQL away, a long transaction, a stalled event loop) verifies every key in PostgreSQL.
 * 3. A fill cannot resurrect a key: a process that read the key from PostgreSQL *before* the commit could otherwise
 *    put the stale row in its cache *after* the eviction. Every eviction bumps the cache's generation; a fill notes
 *    the generation before its query and is discarded if it changed meanwhile (the version check).
 * 4. The entry's TTL (`CACHE_TTL_MS`) bounds how long a key revoked behind the service's back (SQL by hand, no feed
 *    entry) is still served.
 */
import { LRUCache } from 'lru-cache';

export const CACHE_TTL_MS = 10_000;
export const CACHE_MAX_ENTRIES = 10_000;

/** What a request needs of a verified key: whose it is, and the hash its secret must match. */
export interface CachedKey {
  keyId: string;
  accountId: number;
  secretHash: string;
}

interface Entry extends CachedKey {
  expiresAt: number;
}

export class ApiKeyCache {
  /**
   * Least recently used out first (LRUCache: a Map evicted by its first key walks every deleted slot before it, see
   * card-text-cache.ts). The TTL is checked here, against `clock`, so that tests can move time.
   */
  private readonly entries: LRUCache<string, Entry>;
  private generation = 0;

  constructor(
    /** Whether revocations are applied closely enough to serve from the cache (see the rule above). */
    private readonly trusted: () => boolean,
    private readonly ttlMs = CACHE_TTL_MS,
    maxEntries = CACHE_MAX_ENTRIES,
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** Whether entries are served and kept now. */
  get active(): boolean {
    return this.trusted();
  }

  get size(): number {
    return this.entries.size;
  }

  get(keyId: string): CachedKey | undefined {
    if (!this.trusted()) return undefined;
    const entry = this.entries.get(keyId);
    if (!entry) return undefined;
    if (entry.expiresAt > this.clock()) return entry;
    this.entries.delete(keyId);
    return undefined;
  }

  /** Taken before the database read a fill is made of; `fill` refuses the result if an eviction came in between. */
  fillTicket(): number {
    return this.generation;
  }

  fill(key: CachedKey, ticket: number): void {
    if (ticket !== this.generation || !this.trusted()) return;
    this.entries.set(key.keyId, {
      keyId: key.keyId,
      accountId: key.accountId,
      secretHash: key.secretHash,
      expiresAt: this.clock() + this.ttlMs,
    });
  }

  evict(keyId: string): void {
    this.generation++;
    this.entries.delete(keyId);
  }

  /** Drops everything (and any fill under way). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
