import { format } from 'node:util';
import { StoreUnreachableError } from './common/lifecycle/store-unreachable';
import { JsonLogger } from './common/logging/json-logger';
import { ConfigError, redactUrl } from './config/app-config';

const bootLogger = new JsonLogger('boot');

/**
 * Runs an entrypoint. Boot fails with one JSON line that says what to fix — the variable of a bad setting,
 * or the variable, masked URL and address of a store that cannot be reached — and exit code 1. The process
 * does not wait for a missing store: whatever runs it (docker compose `restart: on-failure`, systemd, k8s)
 * restarts it, and a person starting it by hand sees the cause at once instead of a silent wait.
 */
export function exitOnBootFailure(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      // Every ConfigError message starts with the variable's name.
      bootLogger.error({ msg: 'configuration error', variable: error.message.split(' ')[0], error: error.message });
    } else if (error instanceof StoreUnreachableError) {
      bootLogger.error({
        msg: `${error.store} is unreachable; exiting`,
        variable: error.variable,
        url: redactUrl(error.url),
        address: error.address,
        error: error.reason,
      });
    } else {
      bootLogger.error({
        msg: 'boot failed',
        error: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
    }
    process.exit(1);
  });
}

/**
 * Every line a process writes is JSON: libraries that print through `console` (BullMQ and ioredis do, on
 * connection trouble) go through JsonLogger, and so do crashes Node would print as plain stack traces.
 */
export function routeConsoleToJson(): void {
  const logger = new JsonLogger('console');
  const text = (args: unknown[]) => ({ msg: format(...args) });
  console.log = console.info = (...args: unknown[]) => logger.log(text(args));
  console.debug = (...args: unknown[]) => logger.debug(text(args));
  console.warn = (...args: unknown[]) => logger.warn(text(args));
  console.error = (...args: unknown[]) => logger.error(text(args));
  const crash = (kind: string) => (error: unknown) => {
    new JsonLogger('process').error({
      msg: kind,
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    process.exit(1);
  };
  process.on('uncaughtException', crash('uncaught exception'));
  process.on('unhandledRejection', crash('unhandled rejection'));
}

/**
 * SIGTERM and SIGINT close the application once (a second signal — Ctrl-C reaches both `npm start` and its
 * children — changes nothing) and exit 0; a close that takes longer than `timeoutMs` (a job that does not
 * finish, a store that does not answer) exits 1 anyway. A process forked by start.ts also stops when its
 * parent is gone, even killed with SIGKILL: the IPC channel closes.
 */
export function stopOnSignals(close: () => Promise<void>, timeoutMs: number): void {
  const logger = new JsonLogger('shutdown');
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ msg: 'shutting down', reason });
    setTimeout(() => {
      logger.error({ msg: 'shutdown took too long; exiting', timeoutMs });
      process.exit(1);
    }, timeoutMs).unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ msg: 'shutdown failed', error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
  if (process.send) process.on('disconnect', () => stop('parent process gone'));
}
