/**
 * Redis memory under one key prefix, by key family: `npm run -s bench:redis-memory -- --prefix seed_1m`.
 *
 * Every key under `<prefix>:` is sized exactly (`MEMORY USAGE <key> SAMPLES 0`, pipelined over SCAN pages) and
 * counted under its family: the key with numbers, versions (`v12`) and hashes replaced by `#`, so the rank engine's
 * `ranks:v3:xp:country:RU` and `…:country:DE` add up as `ranks:v#:xp:country:#`. Families are then folded to their
 * first `--depth` segments (default 3) for the summary. Read-only; safe while the service runs.
 */
import Redis from 'ioredis';
import { parseArgs } from 'node:util';

const TOP = 40;

const { values } = parseArgs({
  options: {
    prefix: { type: 'string' },
    depth: { type: 'string', default: '3' },
    'redis-url': { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
});

/** A key's family: numeric and hex-ish segments and version numbers collapsed, cut to `depth` segments. */
export function familyOf(key: string, prefix: string, depth: number): string {
  return key
    .slice(prefix.length + 1)
    .split(':')
    .slice(0, depth)
    .map((part) =>
      part
        .replace(/^v\d+$/, 'v#')
        .replace(/^[a-z]?\d{4}-\d\d-\d\d(T\d\d)?$/, '#date')
        .replace(/^-?\d+$/, '#')
        .replace(/^[0-9a-f]{16,}$/i, '#'),
    )
    .join(':');
}

async function main(): Promise<void> {
  const prefix = values.prefix;
  if (!prefix) throw new Error('--prefix is required (the REDIS_PREFIX of the database measured)');
  const depth = Number(values.depth);
  const redis = new Redis(values['redis-url']!, { lazyConnect: true });
  await redis.connect();
  const families = new Map<string, { keys: number; bytes: number }>();
  let cursor = '0';
  let total = 0;
  let keys = 0;
  do {
    const [next, page] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 2000);
    cursor = next;
    if (!page.length) continue;
    const pipeline = redis.pipeline();
    for (const key of page) pipeline.memory('USAGE', key, 'SAMPLES', 0);
    const sizes = (await pipeline.exec()) ?? [];
    page.forEach((key, i) => {
      const bytes = Number(sizes[i]?.[1] ?? 0);
      const family = familyOf(key, prefix, depth);
      const entry = families.get(family) ?? { keys: 0, bytes: 0 };
      entry.keys++;
      entry.bytes += bytes;
      families.set(family, entry);
      total += bytes;
      keys++;
    });
  } while (cursor !== '0');
  const info = await redis.info('memory');
  await redis.quit();
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1).padStart(9);
  process.stdout.write(`redis memory under ${prefix}: — ${keys} keys, ${mb(total).trim()} MB in all\n`);
  const sorted = [...families].sort((a, b) => b[1].bytes - a[1].bytes);
  for (const [family, { keys: n, bytes }] of sorted.slice(0, TOP))
    process.stdout.write(`  ${mb(bytes)} MB  ${String(n).padStart(8)} keys  ${family}\n`);
  const rest = sorted
    .slice(25)
    .reduce((sum, [, { keys: n, bytes }]) => ({ keys: sum.keys + n, bytes: sum.bytes + bytes }), { keys: 0, bytes: 0 });
  if (rest.keys)
    process.stdout.write(`  ${mb(rest.bytes)} MB  ${String(rest.keys).padStart(8)} keys  (${sorted.length - TOP} smaller families)\n`);
  const used = /used_memory:(\d+)/.exec(info)?.[1];
  if (used) process.stdout.write(`the server's used_memory (every prefix): ${mb(Number(used)).trim()} MB\n`);
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
