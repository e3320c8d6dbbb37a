/**
 * The bench scripts' load generator: one request (`once`), a stretch of them at a fixed concurrency on kept
 * connections (`sample`), their percentiles and throughput (`summarize`), and a report row against a baseline.
 */
import { Pool } from 'undici';

/** Requests in flight per operation, as the figures are stated. */
export const CONCURRENCY = 16;

export interface Call {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: (i: number) => unknown;
  /** Requests in flight (default CONCURRENCY): 1 measures a request's own latency, with no queueing behind others. */
  concurrency?: number;
  /**
   * Its throughput is held against `/health`'s (the issue's bar for `/health` itself, `stats.getStats` and
   * `account.getInfo`): measured over THROUGHPUT_FACTOR times as many requests, since a ratio of two throughputs
   * needs longer stretches than a latency percentile on a host whose speed drifts from one second to the next.
   */
  throughputBar?: boolean;
  /** Sent instead of the run's API key (a user session, for the operations only a signed-in user may call). */
  token?: string;
}

/** How many times --requests a call with `throughputBar` is measured over. */
export const THROUGHPUT_FACTOR = 5;

export interface Measured {
  ok: number;
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  perSecond: number;
  firstError?: string;
}

/** Deterministic pseudo-random account ids, so two runs ask for the same accounts. */
export function ids(count: number, max: number, salt: number): number[] {
  let x = (salt * 2654435761) >>> 0 || 1;
  return Array.from({ length: count }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return 1 + ((x >>> 0) % max);
  });
}

/**
 * Kept connections to the API on 127.0.0.1: one per request in flight. undici's client costs the load generator, which
 * shares the machine's two cores with the API, PostgreSQL and Redis, a fraction of what node:http's did (see
 * docs/performance-history.md, "a leaner load generator").
 */
export function connections(port: number, concurrency = CONCURRENCY): Pool {
  return new Pool(`http://127.0.0.1:${port}`, { connections: concurrency, pipelining: 1 });
}

/** One request: status and latency, or 0 and the timeout when it took longer. */
export async function once(
  call: Call,
  token: string,
  i: number,
  timeoutMs: number,
  pool: Pool,
): Promise<{ status: number; ms: number; body?: string }> {
  const payload = call.body ? JSON.stringify(call.body(i)) : undefined;
  const headers: Record<string, string> = {};
  const bearer = call.token ?? token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (payload) headers['content-type'] = 'application/json';
  const started = performance.now();
  try {
    // The whole answer within timeoutMs, as one timer per request: undici's own headersTimeout applies a request's
    // value only to a connection whose timer is not already running, so a kept connection would ignore it.
    const res = await pool.request({
      path: call.path,
      method: call.method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const ok = res.statusCode < 300;
    // The body is read to its end either way: the latency is the whole answer's.
    const body = ok ? (await res.body.dump({ limit: Number.MAX_SAFE_INTEGER }), undefined) : (await res.body.text()).slice(0, 200);
    return { status: res.statusCode, ms: performance.now() - started, body };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return { status: 0, ms: timeoutMs };
    throw error;
  }
}

/** The raw outcome of one stretch of requests. */
export interface Sample {
  latencies: number[];
  ok: number;
  errors: number;
  timeouts: number;
  seconds: number;
  firstError?: string;
}

/** Runs a call at CONCURRENCY until `total` requests (numbered from `from`) or `seconds` have passed. */
export async function sample(
  call: Call,
  port: number,
  token: string,
  from: number,
  total: number,
  seconds: number,
  timeoutMs: number,
  /** Connections kept from an earlier sample of the same call (interleaved rounds); otherwise new ones, closed after. */
  kept?: Pool,
): Promise<Sample> {
  const concurrency = call.concurrency ?? CONCURRENCY;
  const pool = kept ?? connections(port, concurrency);
  const out: Sample = { latencies: [], ok: 0, errors: 0, timeouts: 0, seconds: 0 };
  let next = from;
  const started = performance.now();
  const stopAt = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < from + total && performance.now() < stopAt) {
        const result = await once(call, token, next++, timeoutMs, pool).catch((error: Error) => ({
          status: -1,
          ms: 0,
          body: error.message,
        }));
        // Latencies of answers and timeouts only: a refused connection is an error, not a fast answer.
        if (result.status >= 0) out.latencies.push(result.ms);
        if (result.status === 0) out.timeouts++;
        else if (result.status >= 200 && result.status < 300) out.ok++;
        else {
          out.errors++;
          out.firstError ??= `${result.status} ${result.body ?? ''}`;
        }
      }
    }),
  );
  if (!kept) await pool.destroy();
  out.seconds = (performance.now() - started) / 1000;
  return out;
}

/** Percentiles and throughput over one or more samples (throughput: answers over the samples' summed time). */
export function summarize(samples: Sample[]): Measured {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const sum = (field: 'ok' | 'errors' | 'timeouts' | 'seconds') => samples.reduce((total, s) => total + s[field], 0);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const firstError = samples.find((s) => s.firstError)?.firstError;
  return {
    ok: sum('ok'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    p50: at(0.5),
    p99: at(0.99),
    perSecond: sum('ok') / sum('seconds'),
    firstError,
  };
}

/** Runs a call at CONCURRENCY until `total` requests or `seconds` have passed. */
export async function measure(
  call: Call,
  port: number,
  token: string,
  total: number,
  seconds: number,
  timeoutMs: number,
): Promise<Measured> {
  return summarize([await sample(call, port, token, 0, total, seconds, timeoutMs)]);
}

/** One line of the report: the operation's figures and their ratios to the `/health` baseline of the same run. */
export function resultRow(name: string, m: Measured, baseline: Measured, timeoutMs: number): Record<string, string> {
  const ms = (v: number) => (v >= timeoutMs ? `≥${timeoutMs}` : v.toFixed(1));
  return {
    operation: name.padEnd(44),
    ok: `${m.ok}`.padStart(4),
    errors: `${m.errors}`,
    timeouts: `${m.timeouts}`,
    p50ms: ms(m.p50).padStart(7),
    p99ms: ms(m.p99).padStart(7),
    perSecond: m.perSecond.toFixed(1).padStart(7),
    p50VsHealth: `${m.p50 >= timeoutMs ? '≥' : ''}${(m.p50 / baseline.p50).toFixed(1)}x`,
    throughputVsHealth: `${(m.perSecond / baseline.perSecond).toFixed(3)}x`,
    ...(m.firstError ? { firstError: m.firstError.replace(/\s+/g, ' ').slice(0, 120) } : {}),
  };
}
