import 'reflect-metadata';
import { exitOnBootFailure, routeConsoleToJson, stopOnSignals } from './boot';
import { checkRedis } from './common/lifecycle/store-unreachable';
import { JsonLogger } from './common/logging/json-logger';
import { configureLogging } from './common/logging/pino';
import { processConfig } from './config/config.module';
import { prepareDatabase } from './database/prepare-database';
import { isApiClusterWorker, runApiPrimary } from './cluster/api-cluster';
import { ChangeFeedFollower } from './change-feed/change-feed-follower';

/**
 * The HTTP API process: migrates, then serves the API, Swagger UI and (without a platform key) the simulator; with
 * API_PROCESSES > 1 it forks that many servers sharing the port instead (src/cluster/api-cluster.ts).
 */
async function main(): Promise<void> {
  configureLogging({ process: 'api' });
  routeConsoleToJson();
  const config = processConfig();
  JsonLogger.setLevel(config.logLevel);
  const logger = new JsonLogger('main');
  const clusterWorker = isApiClusterWorker();
  if (!clusterWorker) {
    // Both stores are checked before Nest boots, so a missing one stops boot with one line naming it.
    await prepareDatabase(config);
    await checkRedis(config.redisUrl);
    // API_PROCESSES > 1: this process only supervises the servers it forks (src/cluster/api-cluster.ts).
    if (config.apiProcesses > 1) return runApiPrimary(config);
  }
  // Loaded once both stores answered: a boot that fails on them or on a variable says so in a second or two.
  const { createHttpApp } = await import('./http-app');
  const app = await createHttpApp(config);
  stopOnSignals(() => app.close(), config.shutdownTimeoutMs);
  const started = Date.now();
  // Attaches the change feed's projections (the friend graph, the replicas), whose loads begin now.
  await app.init();
  const feed = app.get(ChangeFeedFollower);
  // Ready once they are loaded: until then /health answers 503 naming them (HealthController). A process of a cluster
  // listens only then, since the primary hands connections to whichever process listens, its health unasked.
  if (clusterWorker) await feed.whenWarm();
  await app.listen(config.port, '0.0.0.0');
  logger.log({ msg: 'api listening', port: config.port, docs: `${config.publicBaseUrl}/docs`, platform: config.platform.mode });
  void feed.whenWarm().then(() => logger.log({ msg: 'api ready: what it serves from is loaded', loadMs: Date.now() - started }));
}

exitOnBootFailure(main);
