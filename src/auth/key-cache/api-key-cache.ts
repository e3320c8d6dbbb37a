/**
 * # The verified-key cache
 *
 * Verifying an API key used to cost a PostgreSQL query per request. Each API process keeps the keys it has verified
 * lately in memory (`ApiKeyCache`: bounded, least recently used out first, each entry for a short TTL). The rule that
 * matters: **no cache serves a revoked key more than KEY_CACHE_SYNC_MS (3 s) after its revocation committed** (in
 * practice, the nudge's few milliseconds). How it holds:
 *
 * 1. The revoker commits `revoked_at` with a change feed entry, evicts the key in its own process and nudges; every
 *    process evicts it when its follower reads the entry (CredentialRevocations, ../revocations/).
 * 2. `trusted`: the cache answers (and takes fills) only while a poll begun within KEY_CACHE_SYNC_MS has applied
 *    every entry visible to it. A key revoked at time c is evicted by the first poll begun after c; until one has
 *    completed, the last one began before c, so the cache is trusted at most KEY_CACHE_SYNC_MS after c. A process
 *    behind (PostgreSQL away, a stalled event loop) verifies every key in PostgreSQL.
 * 3. A fill cannot resurrect a key: a read of the row from before the commit could land after the eviction. Every
 *    eviction bumps the generation; a fill notes it before its query and is dropped if it changed (the version check).
 * 4. The TTL (`CACHE_TTL_MS`) bounds how long a key revoked behind the service's back (SQL by hand) is still served.
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
