import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { dropDatabase, ensureDatabase } from '../../src/database/ensure-database';
import { databaseUrl } from './stores';

export { databaseUrl, PG_SERVER } from './stores';

/**
 * The migrated template of this run. Global setup names it after its own process and hands the name to the test
 * workers through the environment, so two runs on one server (two clones, a helper's run) never drop each other's.
 */
export function templateDb(): string {
  return process.env.BADGE_STATS_TEST_TEMPLATE ?? 'badge_stats_test_template';
}

/** A fresh, migrated database built once per run; each test file clones it (cheap) so files never share state. */
export async function buildTemplate(): Promise<void> {
  // The pid alone may repeat across machines (containers) sharing one server.
  process.env.BADGE_STATS_TEST_TEMPLATE = `badge_stats_test_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = databaseUrl(templateDb());
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
  await ensureDatabase(url, templateDb());
  return url;
}

export async function dropTemplate(): Promise<void> {
  await dropDatabase(databaseUrl(templateDb()));
}
