import { DataSource } from 'typeorm';
import { reachingPostgres } from '../common/lifecycle/store-unreachable';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { ensureDatabase } from './ensure-database';

/**
 * Creates the database when missing and applies pending migrations. Safe to run from several processes at once.
 * A server that cannot be reached fails with a StoreUnreachableError naming DATABASE_URL (see boot.ts). Logs one
 * line when it creates the database and one when it applies migrations (whichever concurrent starter does).
 */
export async function prepareDatabase(config: AppConfig): Promise<string[]> {
  const logger = new JsonLogger('database');
  const database = decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1));
  if (await reachingPostgres(config.databaseUrl, () => ensureDatabase(config.databaseUrl)))
    logger.log({ msg: 'database created', database });
  const dataSource = new DataSource(dataSourceOptions(config));
  await reachingPostgres(config.databaseUrl, () => dataSource.initialize());
  try {
    // An advisory lock makes concurrent starters (API and worker) apply migrations one at a time.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(727274)');
      const applied = (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
      if (applied.length) logger.log({ msg: 'migrations applied', database, migrations: applied });
      return applied;
    } finally {
      await runner.query('SELECT pg_advisory_unlock(727274)');
      await runner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}
