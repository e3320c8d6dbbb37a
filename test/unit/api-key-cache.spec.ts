import { ApiKeyCache } from '../../src/auth/key-cache/api-key-cache';

const key = (n: number) => ({ keyId: `key_${n}`, accountId: n, secretHash: `hash${n}` });

describe('ApiKeyCache', () => {
  let now: number;
  let cache: ApiKeyCache;
  let trusted: boolean;
  beforeEach(() => {
    now = 1_000_000;
    trusted = true;
    cache = new ApiKeyCache(
      () => trusted,
      10_000,
      3,
      () => now,
    );
  });

  it('should drop a fill whose database read began before a revocation was heard (the version check)', () => {
    const ticket = cache.fillTicket();
    // The read is under way when another process's revocation of this very key arrives…
    cache.evict('key_1');
    // …so the row it read (still live when read) must not land in the cache.
    cache.fill(key(1), ticket);
    expect(cache.get('key_1')).toBeUndefined();
    cache.fill(key(1), cache.fillTicket());
    expect(cache.get('key_1')).toMatchObject({ accountId: 1 });
  });

  it('should keep entries for the TTL only', () => {
    cache.fill(key(1), cache.fillTicket());
    now += 9_999;
    expect(cache.get('key_1')).toBeDefined();
    now += 1;
    expect(cache.get('key_1')).toBeUndefined();
  });

  it('should hold at most its bound, dropping the least recently used', () => {
    for (const n of [1, 2, 3]) cache.fill(key(n), cache.fillTicket());
    cache.get('key_1');
    cache.fill(key(4), cache.fillTicket());
    expect(cache.size).toBe(3);
    expect(cache.get('key_2')).toBeUndefined();
    expect(cache.get('key_1')).toBeDefined();
  });

  it('should serve and keep nothing while its process is behind the change feed, and forget everything on a reload', () => {
    cache.fill(key(1), cache.fillTicket());
    trusted = false;
    expect(cache.get('key_1')).toBeUndefined();
    cache.fill(key(2), cache.fillTicket());
    trusted = true;
    expect(cache.get('key_2')).toBeUndefined();
    expect(cache.get('key_1')).toBeDefined();
    const ticket = cache.fillTicket();
    cache.clear();
    expect(cache.size).toBe(0);
    cache.fill(key(3), ticket);
    expect(cache.size).toBe(0);
  });
});
