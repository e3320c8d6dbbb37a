import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { TypeOrmJsonLogger } from '../common/logging/typeorm-logger';
import { AppConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { PreparingClient } from './preparing-client';
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
    // JSON lines without query parameters (see TypeOrmJsonLogger); pool warnings tell of a lost connection.
    logging: ['error', 'warn', 'migration'],
    logger: new TypeOrmJsonLogger(),
    // Without a connect timeout a request waits for an unreachable server until the OS gives up (minutes);
    // with it the request fails fast and is answered 503. PreparingClient: each statement is parsed and planned once
    // per connection (preparing-client.ts). A connection idle for a minute is closed, not after pg-pool's 10 s: a new
    // one costs PostgreSQL a backend and every statement prepared and planned again (~0.25 s of its CPU for the API's
    // statements at a million accounts), and under a load that comes and goes the pool kept closing and reopening
    // them (docs/performance-history.md, "Profiles read together").
    extra: { max: 20, idleTimeoutMillis: 60_000, application_name: 'badge-stats', connectionTimeoutMillis: 5000, Client: PreparingClient },
  };
}
