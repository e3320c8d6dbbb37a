import type { RedisOptions } from 'ioredis';

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
  };
}
