import { ConfigError } from './config/app-config';
import { JsonLogger } from './common/logging/json-logger';

/** Runs an entrypoint; a bad configuration stops boot with one clear line naming the variable. */
export function exitOnBootFailure(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
    } else {
      new JsonLogger('boot').error({
        msg: 'boot failed',
        error: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
    }
    process.exit(1);
  });
}
