import 'reflect-metadata';
import { exitOnBootFailure } from './boot';
import { JsonLogger } from './common/logging/json-logger';
import { processConfig } from './config/config.module';
import { prepareDatabase } from './database/prepare-database';
import { createHttpApp } from './http-app';

/** The HTTP API process: migrates, then serves the API, Swagger UI and (without a platform key) the simulator. */
async function main(): Promise<void> {
  const config = processConfig();
  const logger = new JsonLogger('main');
  const migrations = await prepareDatabase(config);
  if (migrations.length) logger.log({ msg: 'migrations applied', migrations });
  const app = await createHttpApp(config);
  await app.listen(config.port, '0.0.0.0');
  logger.log({ msg: 'api listening', port: config.port, docs: `${config.publicBaseUrl}/docs`, platform: config.platform.mode });
}

exitOnBootFailure(main);
