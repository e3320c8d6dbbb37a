import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { exitOnBootFailure } from './boot';
import { withHugePageMalloc } from './common/lifecycle/huge-pages';
import { API_V8_FLAGS } from './common/lifecycle/young-generation';
import { GET_THE_STORES, unreachableStores } from './preflight';
import { JsonLogger } from './common/logging/json-logger';
import { processConfig } from './config/config.module';
import { configureLogging } from './common/logging/pino';

/**
 * `npm start`: runs the API and the worker as two processes, the way they are deployed, under one command.
 * SIGTERM/SIGINT are passed on to both (npm passes them to this process: the start script `exec`s node, so no
 * shell stands between them). A child that dies on its own (a crash, an OOM kill, a SIGKILL) is started again after
 * a backoff while the other keeps serving: 1 s, doubling per exit up to 30 s, back to 1 s once a child has run for a
 * minute. The worker's UpdateReconciler requeues what a killed worker left `in_progress` (UPDATE_RECOVERY_INTERVAL_MS).
 * Only a signal stops everything; a child still running `KILL_AFTER_MS` after the stop began is killed, so the
 * command always ends, and ends with its children.
 */
const KILL_AFTER_MS = 15_000;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A child that ran this long before it died is restarted after the first backoff again, not the doubled one. */
const STABLE_AFTER_MS = 60_000;
/** Each child's script and V8 options (the API's young generation: common/lifecycle/young-generation.ts). */
const CHILDREN = [
  ['api', 'main.js', API_V8_FLAGS],
  ['worker', 'worker.js', []],
] as const;
configureLogging({ process: 'start' });
const logger = new JsonLogger('start');
const children = new Map<string, ChildProcess>();
const backoff = new Map<string, number>();
const restarts = new Set<NodeJS.Timeout>();
let stopping = false;

function stopAll(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  for (const timer of restarts) clearTimeout(timer);
  restarts.clear();
  if (children.size === 0) process.exit();
  for (const child of children.values()) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  setTimeout(() => {
    for (const [name, child] of children) {
      logger.error({ msg: 'child did not stop in time; killing it', child: name, pid: child.pid });
      child.kill('SIGKILL');
    }
  }, KILL_AFTER_MS).unref();
}

function startChild(name: string, file: string, v8Flags: readonly string[]): void {
  // Both with malloc's huge pages (huge-pages.ts): glibc reads the setting only as a process starts.
  const child = fork(join(__dirname, file), process.argv.slice(2), {
    stdio: 'inherit',
    env: withHugePageMalloc(process.env),
    execArgv: [...process.execArgv, ...v8Flags],
  });
  const startedAt = Date.now();
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) {
      if (code) process.exitCode = code;
      if (children.size === 0) process.exit();
      return;
    }
    const ranMs = Date.now() - startedAt;
    const delayMs = ranMs >= STABLE_AFTER_MS ? FIRST_BACKOFF_MS : (backoff.get(name) ?? FIRST_BACKOFF_MS);
    backoff.set(name, Math.min(delayMs * 2, MAX_BACKOFF_MS));
    logger.error({ msg: 'child exited; restarting it', child: name, code, signal, ranMs, restartInMs: delayMs });
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) startChild(name, file, v8Flags);
    }, delayMs);
    restarts.add(timer);
  });
}

function startChildren(): void {
  for (const [name, file, v8Flags] of CHILDREN) startChild(name, file, v8Flags);
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
