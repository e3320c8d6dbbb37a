import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Options shared by the app, the migration CLI (ormconfig.ts) and the tests. Migrations never run implicitly. */
export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl'>, databaseUrl = config.databaseUrl): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    // A glob so the same list works from TypeScript sources (tests, CLI) and from the compiled dist/.
    migrations: [join(__dirname, 'migrations', '*.{ts,js}').replace(/\\/g, '/')],
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    extra: { max: 20, application_name: 'badge-stats' },
  };
}
