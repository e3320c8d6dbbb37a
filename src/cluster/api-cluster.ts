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
 * SHUTDOWN_TIMEOUT_MS. A process that dies on its own is forked again after a backoff (1 s, doubling to 30 s, back to
 * 1 s once one has run a minute) while the others keep serving; a new process listens only once it has loaded what it
 * serves from (main.ts), so the primary hands it no connection before.
 */
import cluster, { Worker } from 'node:cluster';
import { withHugePageMalloc } from '../common/lifecycle/huge-pages';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A process that ran this long before it died is replaced after the first backoff again. */
const STABLE_AFTER_MS = 60_000;

/** Runs the primary: forks `config.apiProcesses` servers and supervises them until a signal. */
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
  const backoff: number[] = [];
  const start = (slot: number) => {
    // An API process's rank look-ups are cheaper on huge pages (huge-pages.ts), whatever started the primary.
    const worker = cluster.fork(withHugePageMalloc(process.env));
    const startedAt = Date.now();
    workers[slot] = worker;
    worker.on('exit', (exitCode, signal) => {
      if (stopping) return;
      const delayMs = Date.now() - startedAt >= STABLE_AFTER_MS ? FIRST_BACKOFF_MS : (backoff[slot] ?? FIRST_BACKOFF_MS);
      backoff[slot] = Math.min(delayMs * 2, MAX_BACKOFF_MS);
      logger.error({ msg: 'an API process stopped on its own; starting another', pid: worker.process.pid, exitCode, signal, delayMs });
      setTimeout(() => !stopping && start(slot), delayMs);
    });
  };
  for (let slot = 0; slot < config.apiProcesses; slot++) start(slot);
  logger.log({ msg: 'api processes started', processes: config.apiProcesses, port: config.port });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal, 0));
  if (process.send) process.on('disconnect', () => stop('parent process gone', 0));
}

/** True in a process forked by runApiPrimary: the stores were prepared by the primary. */
export function isApiClusterWorker(): boolean {
  return cluster.isWorker;
}
