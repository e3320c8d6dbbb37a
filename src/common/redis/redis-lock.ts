import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';

const RELEASE_OWN = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
const RENEW_OWN = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";

/**
 * A lock across processes: a Redis key set with NX and an expiry, holding its holder's token, so that releasing or
 * renewing it touches only the holder's own lock (one that expired and was taken by another process is theirs).
 * Used by the versioned Redis keepers' builds, the changes' sweeper and snapshots, and the pricing cycle.
 */
export async function tryLock(redis: Redis, key: string, ttlMs: number): Promise<string | null> {
  const token = `${process.pid}:${randomUUID()}`;
  return (await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK' ? token : null;
}

export async function releaseLock(redis: Redis, key: string, token: string): Promise<void> {
  await redis.eval(RELEASE_OWN, 1, key, token);
}

export async function renewLock(redis: Redis, key: string, token: string, ttlMs: number): Promise<void> {
  await redis.eval(RENEW_OWN, 1, key, token, ttlMs);
}
