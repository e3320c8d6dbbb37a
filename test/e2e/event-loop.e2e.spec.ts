import { ChildProcess, fork } from 'node:child_process';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { IntervalHistogram, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { IMAGE_LIMITS } from '../../src/images/image-formats';
import { RequestDocument, TRACKED_ACCOUNT } from '../support/hostile';
import { startTestApp, TestContext } from '../support/test-app';

/**
 * Issue 7: no request the body limit admits keeps the event loop busy for more than 50 ms, and a concurrent
 * `stats.getStats` is not delayed by a flood of maximal bodies. The app runs in this process; the bodies are
 * built and sent by a child process (test/support/body-flood.js), so the event-loop histogram of this process
 * sees the server's work only (parsing, checking, validating, decoding), never the client's.
 */
const MAX_BLOCK_MS = 50;
/** The flood: this many parallel senders of maximal bodies, for this long. */
const FLOOD_CONCURRENCY = 16;
const FLOOD_MS = 6_000;
/**
 * getStats under the flood: p50 within 3× its p50 alone plus 10 ms. Before the fix (20 MiB upload bodies parsed
 * on the loop, ~100–300 ms per body) the flood's p50 was hundreds of milliseconds; the fixed code stays within
 * a few milliseconds of the baseline on a loaded 2-core machine.
 */
const P50_FACTOR = 3;
const P50_SLACK_MS = 10;

jest.setTimeout(240_000);

interface Reply {
  id: number;
  result?: any;
  error?: string;
}

class Flood {
  private next = 0;
  private readonly waiting = new Map<number, (reply: Reply) => void>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => this.waiting.get(reply.id)?.(reply));
  }

  async call<T = any>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    const reply = await new Promise<Reply>((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ id, cmd, ...args });
    });
    this.waiting.delete(id);
    if (reply.error) throw new Error(reply.error);
    return reply.result as T;
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

describe('the event loop under maximal bodies', () => {
  let ctx: TestContext;
  let flood: Flood;
  let histogram: IntervalHistogram;
  let session: string;
  let apiKey: string;
  let operations: string[];
  const figures: string[] = [];

  const generic = ['string', 'escapes', 'array', 'deep', 'keys'];
  const upload = ['upload-string', 'upload-escapes', 'upload-images'];

  beforeAll(async () => {
    // The flood comes from one address: its bodies are to be read (and refused) here, not turned away at the
    // per-address cap of waiting bodies (test/e2e/large-bodies.e2e.spec.ts tests that cap).
    ctx = await startTestApp('eventloop', { LARGE_BODY_QUEUE_PER_ADDRESS: '10000' });
    await ctx.app.listen(0, '127.0.0.1');
    const port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    session = (await ctx.session(TRACKED_ACCOUNT)).sessionToken;
    apiKey = await ctx.apiKey(TRACKED_ACCOUNT + 1);
    operations = new RequestDocument((await ctx.http().get('/openapi.json').expect(200)).body).operations().map((op) => op.id);
    flood = new Flood(
      fork(join(__dirname, '../support/body-flood.js'), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    await flood.call('port', { port });
    for (const kind of generic) await flood.call('build', { name: kind, kind, limit: ctx.config.bodyLimitBytes });
    const uploadLimit = ctx.config.images.uploadBodyLimitBytes;
    const extra = Object.entries(IMAGE_LIMITS).map(([type, limits]) => [type, limits.maxBytes]);
    for (const kind of upload) await flood.call('build', { name: kind, kind, limit: uploadLimit, extra });
    histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
  });

  afterAll(async () => {
    histogram?.disable();
    if (flood) await flood.call('exit').catch(() => undefined);
    console.log(`event loop figures:\n  ${figures.join('\n  ')}`);
    await ctx?.close();
  });

  /** Sends one body alone and returns the longest event-loop delay seen while the server handled it. */
  async function alone(
    path: string,
    body: string,
    token: string,
  ): Promise<{ status: number; blockedMs: number; ms: number; gcMs: number }> {
    histogram.reset();
    gcMax = 0;
    const answer = await flood.call<{ status: number; ms: number }>('send', { path, body, token });
    return { status: answer.status, ms: answer.ms, blockedMs: histogram.max / 1e6, gcMs: gcMax };
  }
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  });
  gc.observe({ entryTypes: ['gc'] });

  it('should keep every maximal body under the byte limit, on every operation, from blocking the loop over 50 ms', async () => {
    // The loop delay of one request is the least of its repetitions: a request that blocks the loop does so every
    // time, while the scheduler of this loaded machine (and a GC that comes due) only delays some of them.
    const worst: Record<string, { blockedMs: number; at: string; statuses: Set<number> }> = {};
    // One over the bound is measured five more times, a moment apart: in a CI run the other suites' processes can
    // keep this one off both cores for 50 ms three times running (seen once), a blocking request does it every time.
    const measure = async (kind: string, operation: string, token: string, repeats: number) => {
      const runs: number[] = [];
      const run = async () => {
        const { status, blockedMs } = await alone(`/v1/${operation}`, kind, token);
        expect(status).toBeGreaterThanOrEqual(400);
        expect(status).toBeLessThan(500);
        (worst[kind] ??= { blockedMs: 0, at: '-', statuses: new Set() }).statuses.add(status);
        runs.push(blockedMs);
      };
      for (let i = 0; i < repeats; i++) await run();
      for (let i = 0; i < 5 && Math.min(...runs) > MAX_BLOCK_MS; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        await run();
      }
      const blockedMs = Math.min(...runs);
      if (blockedMs >= worst[kind].blockedMs) worst[kind] = { ...worst[kind], blockedMs, at: operation };
    };
    for (const kind of generic) for (const operation of operations) await measure(kind, operation, session, 3);
    for (const kind of upload) await measure(kind, 'account.uploadImages', session, 5);
    for (const [kind, { blockedMs, at, statuses }] of Object.entries(worst)) {
      figures.push(`${kind}: max loop delay ${blockedMs.toFixed(1)} ms (${at}; statuses ${[...statuses].join(',')})`);
    }
    const over = Object.entries(worst).filter(([, { blockedMs }]) => blockedMs > MAX_BLOCK_MS);
    expect(over.map(([kind, { blockedMs, at }]) => `${kind} on ${at}: ${blockedMs.toFixed(1)} ms`)).toEqual([]);
  });

  it('should not delay a concurrent stats.getStats behind a flood of maximal bodies', async () => {
    const probe = { path: '/v1/stats.getStats', token: apiKey };
    await flood.call('probe', { ...probe, count: 20 }); // warm-up
    const baseline = (await flood.call<{ ms: number[] }>('probe', { ...probe, count: 60 })).ms;
    const targets = [
      ...upload.map((body) => ({ path: '/v1/account.uploadImages', body, token: session })),
      ...generic.map((body, i) => ({ path: `/v1/${operations[i % operations.length]}`, body, token: session })),
    ];
    histogram.reset();
    gcMax = 0;
    let gcTotal = 0;
    const gcSum = new PerformanceObserver((list) => list.getEntries().forEach((entry) => (gcTotal += entry.duration)));
    gcSum.observe({ entryTypes: ['gc'] });
    const elu = performance.eventLoopUtilization();
    const loaded = await flood.call<{ ms: number[]; sent: number; statuses: Record<string, number> }>('flood', {
      targets,
      concurrency: FLOOD_CONCURRENCY,
      durationMs: FLOOD_MS,
      probe,
    });
    const floodMaxMs = histogram.max / 1e6;
    const busy = performance.eventLoopUtilization(elu).utilization;
    gcSum.disconnect();
    const base50 = quantile(baseline, 0.5);
    const load50 = quantile(loaded.ms, 0.5);
    figures.push(
      `getStats alone: p50 ${base50.toFixed(1)} ms, p99 ${quantile(baseline, 0.99).toFixed(1)} ms; ` +
        `under a flood of ${FLOOD_CONCURRENCY} parallel maximal bodies (${loaded.sent} bodies in ${FLOOD_MS} ms, statuses ${JSON.stringify(loaded.statuses)}): ` +
        `p50 ${load50.toFixed(1)} ms, p99 ${quantile(loaded.ms, 0.99).toFixed(1)} ms over ${loaded.ms.length} calls; max loop delay ${floodMaxMs.toFixed(1)} ms, ` +
        `loop utilization ${(busy * 100).toFixed(0)}%, GC ${gcTotal.toFixed(0)} ms in all (longest ${gcMax.toFixed(1)} ms)`,
    );
    expect(Object.keys(loaded.statuses).every((status) => Number(status) >= 400 && Number(status) < 500)).toBe(true);
    expect(load50).toBeLessThanOrEqual(P50_FACTOR * base50 + P50_SLACK_MS);
  });
});
