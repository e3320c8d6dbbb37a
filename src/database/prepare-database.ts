import { DataSource } from 'typeorm';
import { reachingPostgres } from '../common/lifecycle/store-unreachable';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { ensureDatabase } from './ensure-database';

/**
 * Creates the database when missing and applies pending migrations. Safe to run from several processes at once.
 * A server that cannot be reached fails with a StoreUnreachableError naming DATABASE_URL (see boot.ts).
 */
export async function prepareDatabase(config: AppConfig): Promise<string[]> {
  await reachingPostgres(config.databaseUrl, () => ensureDatabase(config.databaseUrl));
  const dataSource = new DataSource(dataSourceOptions(config));
  await reachingPostgres(config.databaseUrl, () => dataSource.initialize());
  try {
    // An advisory lock makes concurrent starters (API and worker) apply migrations one at a time.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(727274)');
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(727274)');
      await runner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}
