import Redis from 'ioredis';

/**
 * Drops the connections subscribed to `channel` (RedisChannel names its connection after its channel), as a
 * network failure would: messages published until the subscriber is back are lost to it.
 */
export async function killSubscribers(redis: Redis, channel: string): Promise<number> {
  const clients = (await redis.client('LIST')) as string;
  const ids = clients
    .split('\n')
    .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=', 2))) as Record<string, string>)
    .filter((client) => client.name === channel)
    .map((client) => client.id);
  for (const id of ids) await redis.client('KILL', 'ID', id);
  return ids.length;
}
