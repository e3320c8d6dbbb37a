import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RequestSeries } from './request-series';

export type ProcessRole = 'api' | 'worker';

/** Seconds an account update takes: a few platform calls and a write, or a long wait on the budget or the market. */
const UPDATE_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The request label of paths that are not wire operations (documents, images, unknown paths): one bucket, bounded. */
const OTHER = 'other';

type OperationSeries = ReturnType<RequestSeries['of']>;

/**
 * # Metrics of one process
 *
 * A prom-client registry per process (never the global one: tests start several apps in one process) with the
 * process's own series: requests per operation and status, their latency, account update durations, change-feed
 * follower lag and Node's default metrics (event-loop lag, heap, GC, CPU). MetricsPublisher copies the registry to
 * Redis every few seconds; `/metrics` (src/operators) sums every live process's copy, so one scrape covers every API
 * process and the worker.
 *
 * The request path is the API's hottest: `observeRequest` is two Map lookups and a few additions on plain numbers
 * (RequestSeries), with nothing allocated.
 * Operations are the paths of the OpenAPI document, known at start; anything else counts as `other`, so a caller
 * cannot grow the label set.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: RequestSeries;
  private readonly updates: Histogram<'outcome'>;
  private readonly series = new Map<string, OperationSeries>();
  private other: OperationSeries | null = null;
  private lagReader: (() => number | null) | null = null;

  constructor(readonly role: ProcessRole) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new RequestSeries(this.registry);
    this.updates = new Histogram({
      name: 'account_update_duration_seconds',
      help: 'Account update runs in the worker, by outcome (completed, failed, postponed for the platform budget).',
      labelNames: ['outcome'],
      buckets: UPDATE_BUCKETS,
      registers: [this.registry],
    });
    const readLag = () => this.lagReader?.();
    new Gauge({
      name: 'change_feed_lag_seconds',
      help: 'Seconds since the change-feed follower last caught up (the in-process replicas are at most this old); the largest of the processes.',
      aggregator: 'max',
      registers: [this.registry],
      collect() {
        const lag = readLag();
        if (lag !== null && lag !== undefined) this.set(lag);
      },
    });
    new Gauge({
      name: 'badge_stats_processes',
      help: 'Service processes reporting metrics, by role.',
      labelNames: ['role'],
      aggregator: 'sum',
      registers: [this.registry],
    }).set({ role }, 1);
  }

  /** The wire operations' paths (`/v1/<operationId>`) and the other documented paths to count apart. */
  knowOperations(paths: Iterable<string>): void {
    for (const path of paths) {
      const operation = path.startsWith('/v1/') ? path.slice(4) : path;
      this.series.set(path, this.seriesOf(operation));
    }
    this.series.set('/health', this.seriesOf('health'));
  }

  /** One answered request: `path` without its query string. */
  observeRequest(path: string, status: number, seconds: number): void {
    this.requests.observe(this.series.get(path) ?? (this.other ??= this.requests.of(OTHER)), status, seconds);
  }

  observeUpdate(outcome: 'completed' | 'failed' | 'postponed', seconds: number): void {
    this.updates.labels(outcome).observe(seconds);
  }

  /** Where the change-feed lag is read from (null while the process follows no feed). */
  readLagFrom(reader: () => number | null): void {
    this.lagReader = reader;
  }

  private seriesOf(operation: string): OperationSeries {
    return this.requests.of(operation);
  }
}
