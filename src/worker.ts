import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { exitOnBootFailure } from './boot';
import { JsonLogger } from './common/logging/json-logger';
import { processConfig } from './config/config.module';
import { prepareDatabase } from './database/prepare-database';
import { WorkerModule } from './worker.module';

/** The worker process: an application context with no HTTP server, running the queue processors. */
async function main(): Promise<void> {
  const config = processConfig();
  JsonLogger.setLevel(config.logLevel);
  const logger = new JsonLogger('worker');
  await prepareDatabase(config);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: new JsonLogger() });
  app.enableShutdownHooks();
  await app.init();
  logger.log({ msg: 'worker started', concurrency: config.queue.concurrency, platform: config.platform.mode });
}

exitOnBootFailure(main);
