import { HttpStatus, INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UpdateStatus } from '../../account-records/entities/account-update.entity';
import { UpdateProgressService } from '../../account-records/progress/update-progress.service';
import { ProblemException } from '../../common/problem/problem.exception';
import { AppConfig } from '../../config/app-config';
import { AccountUpdateQueueService } from '../../refresh/account-update-queue.service';
import { out } from '../cli-app';
import { compactRanges, ProgressDisplay, RefreshTally } from '../progress-display';

/**
 * `accounts refresh --from N --count M`: queues an update of each account in the range through the same service
 * as `account.queueUpdate`, then follows the runs in `account_updates` (and the running ones' live progress in
 * Redis) until the worker has finished them all, drawing a progress bar on stderr. Exit code 1 when an update
 * failed, an account does not exist on the platform, a queueing failed or the wait timed out.
 */

export interface RefreshOptions {
  from: number;
  count: number;
  force?: boolean;
  /** Seconds to wait for the worker. */
  timeout: number;
}

/** Accounts resolved and queued at once: enough to overlap platform look-ups, few enough to stay polite. */
const QUEUE_CONCURRENCY = 8;
const POLL_MS = 500;
/** How long nothing may move before the CLI checks, once, whether any worker is listening. */
const NO_WORKER_CHECK_MS = 3000;
/** Live progress is read for at most this many running accounts per poll. */
const LIVE_PROGRESS_READS = 64;

type QueueOutcome =
  | { kind: 'queued' }
  | { kind: 'already' } // an update of it was queued or running already: it is waited for too
  | { kind: 'cooldown' }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

interface RunState {
  status: UpdateStatus;
  error: { category: string } | null;
}

async function queueOne(queue: AccountUpdateQueueService, accountId: number, force: boolean): Promise<QueueOutcome> {
  try {
    return { kind: (await queue.queueTrusted({ id: { accountId } }, force)) ? 'queued' : 'already' };
  } catch (error) {
    if (error instanceof ProblemException && error.getStatus() === HttpStatus.NOT_FOUND) return { kind: 'missing' };
    if (error instanceof ProblemException && error.getStatus() === HttpStatus.TOO_MANY_REQUESTS) return { kind: 'cooldown' };
    return { kind: 'error', message: error instanceof ProblemException ? error.detail : String(error) };
  }
}

/** Runs `work` over `items`, `concurrency` at a time, keeping the results in order. */
async function mapPool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}

/** The latest run of each account: the one just queued, or the one already under way. */
async function latestRuns(dataSource: DataSource, accountIds: number[]): Promise<Map<number, RunState>> {
  const rows: { account_id: number; status: UpdateStatus; error: { category: string } | null }[] = await dataSource.query(
    `SELECT DISTINCT ON (account_id) account_id, status, error FROM account_updates
      WHERE account_id = ANY($1::int[]) ORDER BY account_id, queued_at DESC`,
    [accountIds],
  );
  return new Map(rows.map((row) => [row.account_id, { status: row.status, error: row.error }]));
}

async function tallyOf(runs: Map<number, RunState>, progress: UpdateProgressService, total: number): Promise<RefreshTally> {
  let completed = 0;
  let failed = 0;
  const running: number[] = [];
  for (const [accountId, run] of runs) {
    if (run.status === 'completed') completed++;
    else if (run.status === 'failed') failed++;
    else if (run.status === 'in_progress') running.push(accountId);
  }
  // A running update counts by its live percentage, so the bar moves between completions.
  const live = await Promise.all(running.slice(0, LIVE_PROGRESS_READS).map((accountId) => progress.read(accountId)));
  const partial = live.reduce((sum, snapshot) => sum + (snapshot?.status === 'in_progress' ? snapshot.percent / 100 : 0), 0);
  return { total, completed, failed, running: running.length, fraction: total ? (completed + failed + partial) / total : 1 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function refreshAccounts(app: INestApplicationContext, config: AppConfig, options: RefreshOptions): Promise<void> {
  const queue = app.get(AccountUpdateQueueService);
  const progress = app.get(UpdateProgressService);
  const dataSource = app.get(DataSource);
  const ids = Array.from({ length: options.count }, (_, i) => options.from + i);
  const label = `accounts ${options.from}..${options.from + options.count - 1}`;
  process.stderr.write(`${label}: queueing ${ids.length} update${ids.length === 1 ? '' : 's'}…\n`);

  const outcomes = await mapPool(ids, QUEUE_CONCURRENCY, (accountId) => queueOne(queue, accountId, options.force === true));
  const idsWith = (kind: QueueOutcome['kind']) => ids.filter((_, i) => outcomes[i].kind === kind);
  const watched = ids.filter((_, i) => outcomes[i].kind === 'queued' || outcomes[i].kind === 'already');
  const missing = idsWith('missing');
  const cooledDown = idsWith('cooldown');
  // One line per distinct reason: an unreachable platform fails every account the same way.
  const queueErrors = new Map<string, number[]>();
  outcomes.forEach((outcome, i) => {
    if (outcome.kind === 'error') queueErrors.set(outcome.message, [...(queueErrors.get(outcome.message) ?? []), ids[i]]);
  });
  const notQueued = [...queueErrors.values()].reduce((sum, list) => sum + list.length, 0);

  const display = new ProgressDisplay(process.stderr, label);
  const deadline = Date.now() + options.timeout * 1000;
  let tally: RefreshTally = { total: watched.length, completed: 0, failed: 0, running: 0, fraction: watched.length ? 0 : 1 };
  let runs = new Map<number, RunState>();
  let lastMoveAt = Date.now();
  let workerChecked = false;
  while (watched.length) {
    runs = await latestRuns(dataSource, watched);
    const next = await tallyOf(runs, progress, watched.length);
    if (next.fraction !== tally.fraction || next.running !== tally.running) lastMoveAt = Date.now();
    tally = next;
    display.update(tally);
    if (tally.completed + tally.failed === tally.total || Date.now() >= deadline) break;
    if (!workerChecked && Date.now() - lastMoveAt >= NO_WORKER_CHECK_MS) {
      workerChecked = true;
      if ((await queue.workerCount()) === 0)
        display.note(
          'no update worker is connected: the updates wait in the queue until one runs (`npm start`, or `npm run start:worker`)',
        );
    }
    await sleep(POLL_MS);
  }
  display.finish(tally);

  const failed = watched.filter((accountId) => runs.get(accountId)?.status === 'failed');
  const unfinished = watched.length - tally.completed - tally.failed;
  const summary = [`${tally.completed} completed`, `${failed.length} failed`];
  if (missing.length) summary.push(`${missing.length} not found`);
  if (cooledDown.length) summary.push(`${cooledDown.length} skipped (updated within the cooldown; --force refreshes them)`);
  if (notQueued) summary.push(`${notQueued} not queued`);
  if (unfinished) summary.push(`${unfinished} still waiting after ${options.timeout} s`);
  out(`${label}: ${summary.join(', ')}`);
  if (failed.length)
    out(`failed: ${failed.map((accountId) => `${accountId} (${runs.get(accountId)?.error?.category ?? 'unknown'})`).join(', ')}`);
  if (missing.length) {
    const simulated = config.platform.mode === 'simulator' ? ` (the simulator has accounts 1..${config.simulator.accounts})` : '';
    out(`not found on the platform${simulated}: ${compactRanges(missing)}`);
  }
  for (const [message, accountIds] of queueErrors) out(`not queued: ${compactRanges(accountIds)} (${message})`);
  if (failed.length || missing.length || notQueued || unfinished) process.exitCode = 1;
}
