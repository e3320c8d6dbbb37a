import { exitOnBootFailure } from './boot';
import { JsonLogger } from './common/logging/json-logger';
import { configureLogging } from './common/logging/pino';
import { processConfig } from './config/config.module';
import { PlatformSimulator } from './platform/simulator';

/** `npm run simulator` and the compose service `simulator`: the platform simulator on its own, on SIMULATOR_HOST:SIMULATOR_PORT. */
exitOnBootFailure(async () => {
  configureLogging({ process: 'simulator' });
  const { simulator: options, platform } = processConfig();
  const logger = new JsonLogger('simulator');
  const simulator = new PlatformSimulator({
    seed: options.seed,
    accounts: options.accounts,
    latencyMs: options.latencyMs,
    tickMs: options.tickMs,
    apiKey: platform.apiKey,
  });
  const port = await simulator.listen(options.port, options.host);
  logger.log({
    msg: 'platform simulator listening',
    url: `http://${options.host}:${port}`,
    accounts: options.accounts,
    seed: options.seed,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void simulator.close().then(() => process.exit(0)));
  }
});
