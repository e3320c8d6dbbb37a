import Redis from 'ioredis';
import { FeedEntry } from '../../src/change-feed/change-entry';
import { ChangeFeed } from '../../src/change-feed/change-feed';
import { ChangeFeedPruner } from '../../src/change-feed/change-feed-pruner';
import { DurableFeedConsumer } from '../../src/change-feed/consumer/durable-feed-consumer';
import { REDIS } from '../../src/common/redis/redis.module';
import { captureLogs } from '../support/logs';
import { startTestApp, TestContext } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A handler that keeps the probes (`payload.probe`) it was handed, and how many rounds ever ran at once. */
class Probes {
  readonly seen: number[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Probes to fail once each (the round's entries come again). */
  readonly failOnce = new Set<number>();

  constructor(readonly name: string) {}

  async handle(entries: readonly FeedEntry[]): Promise<void> {
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      await sleep(20);
      for (const entry of entries) {
        const probe = entry.payload?.probe;
        if (typeof probe !== 'number') continue;
        if (this.failOnce.delete(probe)) throw new Error(`probe ${probe} fails once`);
        this.seen.push(probe);
      }
    } finally {
      this.inFlight--;
    }
  }
}

/**
 * Durable consumers of the change feed (src/change-feed/consumer) on the real PostgreSQL and Redis: a position that
 * outlives the consumer, one round at a time across consumers of one name, entries again after a failure, and a feed
 * pruned past the position.
 */
describe('durable feed consumers', () => {
  let ctx: TestContext;
  let feed: ChangeFeed;
  const running: DurableFeedConsumer[] = [];

  const eventually = async (what: string, check: () => Promise<boolean> | boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
      await sleep(20);
    }
  };
  const consumer = (probes: Probes) => {
    const started = new DurableFeedConsumer(ctx.dataSource, ctx.app.get<Redis>(REDIS), ctx.config, probes);
    started.start();
    running.push(started);
    return started;
  };
  /** A committed entry naming no account (no projection re-reads anything), carrying a probe number. */
  const probe = (n: number) =>
    ctx.dataSource.transaction((manager) => feed.record(manager, { kind: 'rows-changed', payload: { probe: n } }));
  const position = async (name: string) =>
    (await ctx.dataSource.query('SELECT xid::text, id::text FROM change_feed_consumers WHERE name = $1', [name]))[0] as
      { xid: string; id: string } | undefined;

  beforeAll(async () => {
    ctx = await startTestApp('consumer', { LOG_LEVEL: 'warn' });
    feed = ctx.app.get(ChangeFeed);
  });
  afterAll(async () => {
    for (const started of running) await started.stop();
    await ctx.close();
  });

  it('should hand what committed while no consumer ran to the next one of its name, in order', async () => {
    const first = new Probes('resume');
    const one = consumer(first);
    await eventually('its position is stored', async () => (await position('resume')) !== undefined);
    await one.stop();
    for (const n of [1, 2, 3, 4, 5]) await probe(n);
    await sleep(1_500);
    expect(first.seen).toEqual([]);
    const stored = await position('resume');
    const second = new Probes('resume');
    consumer(second);
    await eventually('the next consumer handles them', () => second.seen.length >= 5);
    expect(second.seen).toEqual([1, 2, 3, 4, 5]);
    await eventually('the position moved on', async () => BigInt((await position('resume'))!.xid) > BigInt(stored!.xid));
  });

  it('should run one round at a time across the processes consuming one name, missing nothing', async () => {
    const probes = new Probes('shared');
    consumer(probes);
    consumer(probes);
    consumer(probes);
    await eventually('the position is stored', async () => (await position('shared')) !== undefined);
    for (let n = 10; n < 40; n++) await probe(n);
    await eventually('every probe is handled', () => new Set(probes.seen).size === 30);
    expect(probes.maxInFlight).toBe(1);
    // At least once, in feed order: a repeat (an entry handled early by one, final for another) never goes back.
    const firsts = probes.seen.filter((n, i) => probes.seen.indexOf(n) === i);
    expect(firsts).toEqual([...Array(30).keys()].map((i) => i + 10));
  });

  it('should hand a round’s entries again after its handler failed', async () => {
    const probes = new Probes('failing');
    consumer(probes);
    await eventually('the position is stored', async () => (await position('failing')) !== undefined);
    probes.failOnce.add(51);
    for (const n of [50, 51, 52]) await probe(n);
    await eventually('handled after the failure', () => probes.seen.includes(52));
    expect(probes.failOnce.size).toBe(0);
    expect(probes.seen.filter((n) => n === 51)).toHaveLength(1);
    expect(probes.seen.indexOf(51)).toBeLessThan(probes.seen.indexOf(52));
  });

  it('should go on past a pruning with the entries still there, and say what was lost', async () => {
    const probes = new Probes('pruned');
    const one = consumer(probes);
    await eventually('the position is stored', async () => (await position('pruned')) !== undefined);
    await one.stop();
    await probe(60);
    await probe(61);
    // Pruned as the worker would after the retention (every final entry is old enough at 0 ms).
    const pruner = new ChangeFeedPruner(ctx.dataSource);
    await eventually('the probes are pruned', async () => {
      await pruner.prune(0);
      const [{ left }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS left FROM change_feed WHERE payload->>'probe' IN ('60', '61')`,
      );
      return left === 0;
    });
    await probe(62);
    const logs = captureLogs();
    try {
      consumer(probes);
      await eventually('the entry after the pruning is handled', () => probes.seen.includes(62));
      expect(probes.seen).toEqual([62]);
      const warnings = logs.lines
        .map((line) => JSON.parse(line))
        .filter((line) => String(line.msg).startsWith('the change feed was pruned past') && line.consumer === 'pruned');
      expect(warnings).toHaveLength(1);
    } finally {
      logs.restore();
    }
  });
});
