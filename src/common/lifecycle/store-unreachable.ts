import Redis from 'ioredis';
import { redactUrl } from '../../config/app-config';
import { errorText, storeOutage } from '../health/store-outage';
import { redisAddress, redisConnectionOptions } from '../redis/redis-connection';

/**
 * A backing store that cannot be reached at boot. Carries what the one boot log line needs: the variable to
 * fix, its URL with the password masked and the address that was tried.
 */
export class StoreUnreachableError extends Error {
  constructor(
    readonly store: 'PostgreSQL' | 'Redis',
    readonly variable: 'DATABASE_URL' | 'REDIS_URL',
    readonly url: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(`${store} is unreachable at ${address} (${variable}=${redactUrl(url)}): ${reason}`);
  }
}

function postgresAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname || '127.0.0.1'}:${parsed.port || 5432}`;
}

/** Runs a PostgreSQL boot step; a failure to reach the server becomes a StoreUnreachableError. */
export async function reachingPostgres<T>(databaseUrl: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!storeOutage(error) && !isAuthOrMissingDatabase(error)) throw error;
    throw new StoreUnreachableError('PostgreSQL', 'DATABASE_URL', databaseUrl, postgresAddress(databaseUrl), errorText(error));
  }
}

/** A wrong password or user (28P01, 28000) is as fatal at boot as a refused connection, and as clearly named. */
function isAuthOrMissingDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '28P01' || code === '28000' || code === '3D000';
}

/**
 * Connects to Redis once, without retrying, and pings it: the processes refuse to start without Redis
 * rather than report healthy and fail every request.
 */
export async function checkRedis(redisUrl: string): Promise<void> {
  const client = new Redis({
    ...redisConnectionOptions(redisUrl),
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 5000,
  });
  // The socket error (ECONNREFUSED…) says more than the rejection ("Connection is closed.").
  let socketError: unknown = null;
  client.on('error', (error: unknown) => (socketError ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new StoreUnreachableError('Redis', 'REDIS_URL', redisUrl, redisAddress(redisUrl), errorText(socketError ?? error));
  } finally {
    client.disconnect();
  }
}
