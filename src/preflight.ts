import { AppConfig } from './config/app-config';
import { ensureDatabase } from './database/ensure-database';
import { checkRedis, reachingPostgres, StoreUnreachableError } from './common/lifecycle/store-unreachable';

/** The one line that gets both stores on a developer's machine; `npm start` prints it when one is missing. */
export const GET_THE_STORES =
  'Start PostgreSQL and Redis with: docker compose up -d postgres redis   (or on Debian/Ubuntu: sudo apt-get install -y postgresql redis-server)';

/**
 * Reaches PostgreSQL (creating the database when missing, the first step of every process's boot) and Redis, both
 * at once, and returns the stores that could not be reached. Anything else that goes wrong is thrown.
 */
export async function unreachableStores(config: Pick<AppConfig, 'databaseUrl' | 'redisUrl'>): Promise<StoreUnreachableError[]> {
  const checks = await Promise.allSettled([
    reachingPostgres(config.databaseUrl, () => ensureDatabase(config.databaseUrl)),
    checkRedis(config.redisUrl),
  ]);
  const unreachable: StoreUnreachableError[] = [];
  for (const check of checks) {
    if (check.status === 'fulfilled') continue;
    if (!(check.reason instanceof StoreUnreachableError)) throw check.reason;
    unreachable.push(check.reason);
  }
  return unreachable;
}
