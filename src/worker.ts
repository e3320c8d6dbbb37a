import 'reflect-metadata';
import { exitOnBootFailure, routeConsoleToJson, stopOnSignals } from './boot';
import { checkRedis } from './common/lifecycle/store-unreachable';
import { JsonLogger } from './common/logging/json-logger';
import { configureLogging, nestLogger } from './common/logging/pino';
import { processConfig } from './config/config.module';
import { prepareDatabase } from './database/prepare-database';

/** The worker process: an application context with no HTTP server, running the queue processors. */
async function main(): Promise<void> {
  configureLogging({ process: 'worker' });
  routeConsoleToJson();
  const config = processConfig();
  JsonLogger.setLevel(config.logLevel);
  const logger = new JsonLogger('worker');
  await prepareDatabase(config);
  await checkRedis(config.redisUrl);
  // Loaded once both stores answered: a boot that fails on them or on a variable says so in a second or two.
  const [{ NestFactory }, { WorkerModule }] = await Promise.all([import('@nestjs/core'), import('./worker.module')]);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: nestLogger(), abortOnError: false });
  stopOnSignals(() => app.close(), config.shutdownTimeoutMs);
  await app.init();
  logger.log({ msg: 'worker started', concurrency: config.queue.concurrency, platform: config.platform.mode });
}

exitOnBootFailure(main);
