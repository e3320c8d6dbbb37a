/**
 * # One API process per core
 *
 * With `API_PROCESSES=N` (N > 1) the API entrypoint becomes a node:cluster primary: it migrates and checks the
 * stores once, then forks N HTTP processes that share the listening port (the primary accepts connections and
 * hands them out round-robin) and serves nothing itself. The update worker stays a separate process
 * (`npm start` forks it next to the API, as before).
 *
 * Why it is safe: every piece of shared state is in PostgreSQL or Redis (rate limits, usage counts, the rank
 * engine, stream fan-out over pub/sub); what a process keeps for itself is a cache (known cells, the trending
 * list, the friend graph — each process loads its own copy of the graph, ~50 MB at a million accounts). The
 * embedded simulator cannot be shared, so N > 1 requires an external platform (config refuses otherwise).
 *
 * Lifecycle: SIGTERM/SIGINT (or the parent's IPC channel closing, when start.ts forked us) are passed to every
 * process, which closes as a single API would; the primary exits once they all have, or after
 * SHUTDOWN_TIMEOUT_MS. A process that dies on its own takes the primary down with exit code 1, so a supervisor
 * restarts the whole API (the same choice as for a store unreachable at boot).
 */
import cluster, { Worker } from 'node:cluster';
import { withHugePageMalloc } from '../common/lifecycle/huge-pages';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';

/** Runs the primary: forks `config.apiProcesses` servers and supervises them until a signal or a failure. */
export function runApiPrimary(config: AppConfig): void {
  const logger = new JsonLogger('api-cluster');
  const workers: Worker[] = [];
  let stopping = false;
  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    logger.log({ msg: 'stopping API processes', reason });
    for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      logger.error({ msg: 'API processes did not stop in time; exiting', timeoutMs: config.shutdownTimeoutMs });
      process.exit(1);
    }, config.shutdownTimeoutMs + 1000).unref();
    const waitAll = () => (workers.every((worker) => worker.isDead()) ? process.exit(code) : setTimeout(waitAll, 50));
    waitAll();
  };
  for (let i = 0; i < config.apiProcesses; i++) {
    // An API process's rank look-ups are cheaper on huge pages (huge-pages.ts), whatever started the primary.
    const worker = cluster.fork(withHugePageMalloc(process.env));
    workers.push(worker);
    worker.on('exit', (exitCode, signal) => {
      if (!stopping) {
        logger.error({ msg: 'an API process stopped on its own', pid: worker.process.pid, exitCode, signal });
        stop('an API process stopped', 1);
      }
    });
  }
  logger.log({ msg: 'api processes started', processes: config.apiProcesses, port: config.port });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal, 0));
  if (process.send) process.on('disconnect', () => stop('parent process gone', 0));
}

/** True in a process forked by runApiPrimary: the stores were prepared by the primary. */
export function isApiClusterWorker(): boolean {
  return cluster.isWorker;
}
