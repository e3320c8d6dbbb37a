import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { dropDatabase } from '../../src/database/ensure-database';
import { prepareDatabase } from '../../src/database/prepare-database';
import { databaseUrl } from '../support/databases';
import { uniqueName } from '../support/test-app';

describe('migrations', () => {
  const url = databaseUrl(uniqueName('migrations'));
  afterAll(() => dropDatabase(url));

  it('should create the database on first start and leave nothing between entities and migrations', async () => {
    const applied = await prepareDatabase(loadConfig({ DATABASE_URL: url }));
    expect(applied.length).toBeGreaterThan(0);
    expect(await prepareDatabase(loadConfig({ DATABASE_URL: url }))).toEqual([]);
    const dataSource = new DataSource(dataSourceOptions(loadConfig({ DATABASE_URL: url })));
    await dataSource.initialize();
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      // Non-empty means an entity changed without a migration: run `npm run migration:generate -- src/database/migrations/<Name>`.
      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
