import Redis, { RedisOptions } from 'ioredis';
import { JsonLogger } from '../logging/json-logger';
import { errorText } from '../health/store-outage';

/** Reconnect delay: quick at first, then every 2 s while Redis stays away; never gives up. */
export function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt, 5), 2000);
}

/** ioredis options from a `redis://[user:pass@]host:port[/db]` URL, for clients that take options (BullMQ). */
export function redisConnectionOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || 6379),
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    retryStrategy: reconnectDelay,
  };
}

/** `host:port` of a Redis URL, for log lines (never the credentials). */
export function redisAddress(url: string): string {
  const { host, port } = redisConnectionOptions(url);
  return `${host}:${port}`;
}

/**
 * Options of the shared command client. Without an offline queue a command issued while Redis is away fails
 * at once (and the request is answered 503) instead of waiting for a reconnect; the command timeout bounds
 * a Redis that accepts connections but does not answer.
 */
export function commandClientOptions(url: string): RedisOptions {
  return {
    ...redisConnectionOptions(url),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    commandTimeout: 5000,
    // Commands issued by concurrent requests in the same tick leave in one write: fewer syscalls under load.
    enableAutoPipelining: true,
  };
}

/**
 * Turns a client's connection events into JSON log lines: one warning when the connection is lost, one line
 * when it is back. Without an `error` listener ioredis prints every failed reconnect as a plain-text stack
 * trace ("[ioredis] Unhandled error event").
 */
export function watchRedis(client: Redis, role: string, address: string): Redis {
  const logger = new JsonLogger('redis');
  let down = false;
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    logger.warn({ msg: 'redis unavailable; reconnecting', role, address, error: errorText(error) });
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log({ msg: 'redis connection restored', role, address });
  });
  return client;
}
