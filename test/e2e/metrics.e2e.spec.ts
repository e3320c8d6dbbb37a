import Redis from 'ioredis';
import { MetricsPublisher } from '../../src/common/metrics/metrics-publisher';
import { ServiceMetrics } from '../../src/common/metrics/service-metrics';
import { CallBudget } from '../../src/platform/client/call-budget';
import { REDIS_URL, startTestApp, TestContext } from '../support/test-app';

const TOKEN = 'metrics-token-0123456789abcdef';

/**
 * The Prometheus text exposition format (0.0.4), line by line: a line that is none of these fails the parse. Values
 * are Go floats, whose NaN is spelt in any case (prom-client writes `Nan`, e.g. an event-loop mean before a sample).
 */
const HELP = /^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/;
const TYPE = /^# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|histogram|summary|untyped)$/;
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*)?\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|\+Inf|-Inf|[Nn]a[Nn]))( -?\d+)?$/;

/** Every sample of a scrape as `name{labels}` → value; throws on a line that is not Prometheus text. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || HELP.test(line) || TYPE.test(line)) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return samples;
}

describe('GET /metrics', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await startTestApp('metrics', { METRICS_TOKEN: TOKEN });
    key = await ctx.apiKey(801);
  });
  afterAll(() => ctx.close());

  const scrape = async () => {
    const res = await ctx.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
    return parse(res.text);
  };

  it('should answer only the metrics token', async () => {
    await ctx.http().get('/metrics').expect(401);
    await ctx.http().get('/metrics').set('Authorization', `Bearer ${key}`).expect(401);
    await ctx.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}x`).expect(401);
    await ctx.http().get('/metrics').set('Authorization', `Basic ${TOKEN}`).expect(401);
    const session = await ctx.session(801);
    await ctx.http().get('/metrics').set('Authorization', `Bearer ${session.sessionToken}`).expect(401);
  });

  it('should parse as Prometheus text and count requests per operation and status as they are served', async () => {
    const before = await scrape();
    const count = (samples: Map<string, number>, labels: string) => samples.get(`http_requests_total{${labels}}`) ?? 0;
    for (let i = 0; i < 3; i++) await ctx.http().get('/health').expect(200);
    await ctx.http().post('/v1/stats.getStats').set('Authorization', `Bearer ${key}`).send({}).expect(200);
    await ctx.http().post('/v1/stats.getStats').send({}).expect(401);
    await ctx.http().post('/v1/no.suchOperation?x=1').set('Authorization', `Bearer ${key}`).send({});
    const after = await scrape();
    expect(count(after, 'operation="health",status="200"') - count(before, 'operation="health",status="200"')).toBe(3);
    expect(count(after, 'operation="stats.getStats",status="200"') - count(before, 'operation="stats.getStats",status="200"')).toBe(1);
    expect(count(after, 'operation="stats.getStats",status="401"') - count(before, 'operation="stats.getStats",status="401"')).toBe(1);
    // An unknown path is `other`, never a label of its own.
    expect([...after.keys()].some((name) => name.includes('no.suchOperation'))).toBe(false);
    expect(count(after, 'operation="other",status="404"')).toBeGreaterThanOrEqual(1);
    const latency = (samples: Map<string, number>) => samples.get('http_request_duration_seconds_count{operation="health"}') ?? 0;
    expect(latency(after) - latency(before)).toBe(3);
    expect(after.get('http_request_duration_seconds_bucket{le="+Inf",operation="health"}')).toBe(latency(after));

    // The event loop, the queues, the platform budget and the change-feed follower's lag.
    expect(after.get('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(after.get('bullmq_queue_jobs{queue="account-update",state="waiting"}')).toBe(0);
    await ctx.app.get(CallBudget).take(7);
    const budget = await scrape();
    expect(budget.get('platform_call_budget_limit')).toBe(ctx.config.platform.dailyCallBudget);
    expect(budget.get('platform_call_budget_remaining')).toBe(ctx.config.platform.dailyCallBudget - 7);
    expect(budget.get('change_feed_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(budget.get('badge_stats_processes{role="api"}')).toBe(1);
  });

  it('should add the queue depth as jobs are queued', async () => {
    const staff = await ctx.apiKey(802);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (802, 'staff')`);
    await ctx
      .http()
      .post('/v1/group.queueUpdate')
      .set('Authorization', `Bearer ${staff}`)
      .send({ groupIds: [5, 6] })
      .expect(204);
    expect((await scrape()).get('bullmq_queue_jobs{queue="group-refresh",state="waiting"}')).toBe(2);
  });

  it("should sum the other processes' series published through Redis (the worker's update durations)", async () => {
    const redis = new Redis(REDIS_URL);
    const worker = new ServiceMetrics('worker');
    const publisher = new MetricsPublisher(worker, redis, ctx.config);
    try {
      worker.observeUpdate('completed', 1.5);
      worker.observeUpdate('failed', 0.2);
      await publisher.publish();
      const samples = await scrape();
      expect(samples.get('account_update_duration_seconds_count{outcome="completed"}')).toBe(1);
      expect(samples.get('account_update_duration_seconds_sum{outcome="failed"}')).toBeCloseTo(0.2);
      expect(samples.get('badge_stats_processes{role="worker"}')).toBe(1);
      expect(samples.get('badge_stats_processes{role="api"}')).toBe(1);
      // A process that stops takes its copy away.
      await publisher.onApplicationShutdown();
      expect((await scrape()).get('badge_stats_processes{role="worker"}')).toBeUndefined();
    } finally {
      redis.disconnect();
    }
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('should not be served', async () => {
    const ctx = await startTestApp('nometrics');
    try {
      await ctx.http().get('/metrics').set('Authorization', 'Bearer anything-at-all-0123456789').expect(404);
    } finally {
      await ctx.close();
    }
  });
});
