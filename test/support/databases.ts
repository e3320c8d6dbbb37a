import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { dropDatabase, ensureDatabase } from '../../src/database/ensure-database';

/** Where the test databases live; CI and developers share the machine's PostgreSQL. */
export const PG_SERVER = 'postgres://postgres@127.0.0.1:5432';
export const TEMPLATE_DB = 'badge_stats_test_template';

export function databaseUrl(name: string): string {
  return `${PG_SERVER}/${name}`;
}

/** A fresh, migrated database built once per run; each test file clones it (cheap) so files never share state. */
export async function buildTemplate(): Promise<void> {
  const url = databaseUrl(TEMPLATE_DB);
  await dropDatabase(url);
  await ensureDatabase(url);
  const dataSource = new DataSource(dataSourceOptions(loadConfig({ DATABASE_URL: url })));
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();
}

export async function cloneTemplate(name: string): Promise<string> {
  const url = databaseUrl(name);
  await dropDatabase(url);
  await ensureDatabase(url, TEMPLATE_DB);
  return url;
}
