import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { redisKey } from '../common/redis/redis.module';
import { TrendingCounter } from '../common/redis/trending-counter';
import { hash, logUniformInt, unit } from '../platform/simulator/random';

const DAY_MS = 86_400_000;
const SALT_VIEWS = 1101;
/** Hits in flight at once: enough to keep Redis busy without queueing a million promises. */
const IN_FLIGHT = 1000;

/**
 * Profile views for account.getViewStats / account.getTrending, recorded through the service's own TrendingCounter
 * (same keys, buckets and expiry as real views), spread over the 30 days before `now`. About 1% of accounts are
 * viewed, heavy-tailed (1–300 hits by up to ~60% as many visitors), so a million accounts cost ~0.5 M hits.
 * Views expire like real ones (32 days) and are copied into PostgreSQL by the worker like real ones (ViewRollup).
 */
export async function seedProfileViews(config: AppConfig, seed: number, accounts: number, nowMs: number): Promise<number> {
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3 });
  // Tracked as real views are: the worker's ViewRollup copies them into PostgreSQL.
  const counter = new TrendingCounter(redis, redisKey(config, 'views'), { trackChanges: true });
  let hits = 0;
  let inFlight: Promise<void>[] = [];
  try {
    for (let accountId = 1; accountId <= accounts; accountId++) {
      const h = (k: number, c = 0) => hash(seed, SALT_VIEWS, accountId, k, c);
      if (h(0) % 100 !== 0) continue;
      const total = logUniformInt(h(1), 1, 300);
      const visitors = Math.max(1, Math.ceil(total * (0.2 + 0.4 * unit(h(2)))));
      for (let i = 0; i < total; i++) {
        const at = new Date(nowMs - Math.floor(unit(h(3, i)) * 30 * DAY_MS));
        inFlight.push(counter.hit(String(accountId), `v:seed-${h(4, i) % visitors}`, at));
        hits++;
        if (inFlight.length >= IN_FLIGHT) {
          await Promise.all(inFlight);
          inFlight = [];
        }
      }
    }
    await Promise.all(inFlight);
    return hits;
  } finally {
    await redis.quit();
  }
}
