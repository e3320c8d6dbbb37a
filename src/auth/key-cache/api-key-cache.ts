/**
 * # The verified-key cache
 *
 * Verifying an API key used to cost a PostgreSQL query per request. Each API process now keeps the keys it has
 * verified lately in memory (`ApiKeyCache`: bounded, least recently used first out, each entry for a short TTL), and a
 * revocation is broadcast to every process over Redis pub/sub (`CredentialRevocations`, ../revocations/). The rule that matters: **once a
 * revocation (account.deleteDeveloperApp, `api-key revoke`) has returned, no process serves the key from its cache.**
 * How it holds:
 *
 * 1. The revoker commits `revoked_at` first, evicts the key from its own cache, then publishes the revocation and
 *    waits until every subscribed process has acknowledged it (PUBLISH says how many received it; each process evicts,
 *    then acks). Only then does the operation return. So every process that was caching has dropped the key.
 * 2. A fill cannot resurrect it: a process that read the key from PostgreSQL *before* the commit could otherwise put
 *    the stale row in its cache *after* the eviction. Every eviction bumps the cache's generation; a fill notes the
 *    generation before its query and is discarded if it changed meanwhile (the version check).
 * 3. A process that is not subscribed cannot hear revocations, so it does not cache: the cache is off until the
 *    subscription is confirmed and is cleared and switched off whenever the subscriber connection drops (messages
 *    published meanwhile are lost); PUBLISH does not count it, so nobody waits for it either.
 * 4. The backstops: an acknowledgement that does not come within `ACK_TIMEOUT_MS` (a process stalled but still
 *    subscribed) is logged, and the entry's TTL (`CACHE_TTL_MS`) bounds how long such a process could still serve it.
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
  private enabled = false;

  constructor(
    private readonly ttlMs = CACHE_TTL_MS,
    maxEntries = CACHE_MAX_ENTRIES,
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** Whether revocations can be heard, so entries are kept. */
  get active(): boolean {
    return this.enabled;
  }

  get size(): number {
    return this.entries.size;
  }

  get(keyId: string): CachedKey | undefined {
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
    if (!this.enabled || ticket !== this.generation) return;
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

  /** On while revocations can be heard; switching it either way drops everything (and any fill under way). */
  setEnabled(enabled: boolean): void {
    this.generation++;
    this.entries.clear();
    this.enabled = enabled;
  }
}
