import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { exitOnBootFailure } from './boot';
import { withHugePageMalloc } from './common/lifecycle/huge-pages';
import { GET_THE_STORES, unreachableStores } from './preflight';
import { JsonLogger } from './common/logging/json-logger';
import { processConfig } from './config/config.module';
import { configureLogging } from './common/logging/pino';

/**
 * `npm start`: runs the API and the worker as two processes, the way they are deployed, under one command.
 * SIGTERM/SIGINT are passed on to both (npm passes them to this process: the start script `exec`s node, so no
 * shell stands between them); if either exits on its own the other is stopped too. A child still running
 * `KILL_AFTER_MS` after the stop began is killed, so the command always ends, and ends with its children.
 */
const KILL_AFTER_MS = 15_000;
configureLogging({ process: 'start' });
const logger = new JsonLogger('start');
const children = new Map<string, ChildProcess>();
let stopping = false;

function stopAll(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  setTimeout(() => {
    for (const [name, child] of children) {
      logger.error({ msg: 'child did not stop in time; killing it', child: name, pid: child.pid });
      child.kill('SIGKILL');
    }
  }, KILL_AFTER_MS).unref();
}

function startChildren(): void {
  for (const [name, file] of [
    ['api', 'main.js'],
    ['worker', 'worker.js'],
  ] as const) {
    // Both with malloc's huge pages (huge-pages.ts): glibc reads the setting only as a process starts.
    const child = fork(join(__dirname, file), process.argv.slice(2), { stdio: 'inherit', env: withHugePageMalloc(process.env) });
    children.set(name, child);
    child.on('exit', (code, signal) => {
      children.delete(name);
      if (!stopping) {
        logger.error({ msg: 'child exited; stopping the others', child: name, code, signal });
        process.exitCode = code || 1;
        stopAll('SIGTERM');
      } else if (code) {
        process.exitCode = code;
      }
      if (children.size === 0) process.exit();
    });
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => stopAll(signal === 'SIGHUP' ? 'SIGTERM' : signal));
}

/**
 * Both stores are checked before anything starts: a newcomer without PostgreSQL or Redis gets, once, which one is
 * missing and the line that gets both (rather than a JSON boot error from each of two processes), and exit code 1.
 */
exitOnBootFailure(async () => {
  const unreachable = await unreachableStores(processConfig());
  if (unreachable.length) {
    for (const store of unreachable) process.stderr.write(`${store.message}\n`);
    process.stderr.write(`${GET_THE_STORES}\n`);
    process.exit(1);
  }
  startChildren();
});
