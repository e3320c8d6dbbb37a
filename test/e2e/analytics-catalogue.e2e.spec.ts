import { CATALOGUE_METRICS, CatalogueDomain } from '../../src/analytics/catalogue-domains/catalogue-metrics';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { matchesDocument } from '../support/wire-answers';

/**
 * The badges and apps domains of the analytics reads against a full recomputation in SQL from the holdings themselves
 * (account_badges, account_apps: not the catalogue tables the service reads), after a burst of updates: every metric's
 * distribution and inequality, and bivariate tables within each domain.
 */

const TODAY = "(now() AT TIME ZONE 'UTC')::date";
const age = (column: string) => `CASE WHEN ${column} IS NOT NULL THEN greatest(0, ${TODAY} - (${column} AT TIME ZONE 'UTC')::date) END`;

/** Per domain, one row per badge or app with every metric's value, recomputed from the holdings. */
const RECOMPUTED: Record<CatalogueDomain, string> = {
  badges: `SELECT coalesce(h.holders, 0) AS holders, b.scarcity, ${age('h.first')} AS first_completion_age,
                  ${age('h.last')} AS last_completion_age
             FROM badges b LEFT JOIN (SELECT badge_id, count(*) AS holders, min(completion_time) AS first, max(completion_time) AS last
                                        FROM account_badges GROUP BY badge_id) h ON h.badge_id = b.id`,
  apps: `SELECT coalesce(o.owners, 0) AS owners
           FROM apps p LEFT JOIN (SELECT app_id, count(*) AS owners FROM account_apps GROUP BY app_id) o ON o.app_id = p.app_id`,
};

describe('analytics: the badges and apps domains', () => {
  let ctx: PipelineContext;
  let key: string;
  const post = (path: string, body: Record<string, unknown>, token = key) =>
    ctx.http().post(`/v1/${path}`).set('Authorization', `Bearer ${token}`).send(body).expect(matchesDocument(path));
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => ctx.dataSource.query(text, params);
  const refresh = async (ids: number[]) => {
    for (const accountId of ids) await post('account.queueUpdate', { id: { accountId } }).expect(204);
    for (const accountId of ids) await ctx.waitForCompletion(accountId, key, 20_000);
  };
  /** Retries `check` for up to 45 s: a domain's values are reloaded at most 15 s after the last load. */
  const eventually = async (check: () => Promise<void>, ms = 45_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  /** A metric's values, one row per badge or app it counts, as `v`. */
  const valuesOf = (domain: CatalogueDomain, metric: string) =>
    `v AS (SELECT ${metric}::float8 AS v FROM (${RECOMPUTED[domain]}) r WHERE ${metric} IS NOT NULL)`;

  async function expectDistribution(domain: CatalogueDomain, metric: string) {
    const res = await post('analytics.getDistribution', { domain, metric, scope: 'global' }).expect(200);
    const [summary] = await sql<Record<string, number>>(
      `WITH ${valuesOf(domain, metric)}
       SELECT count(*)::int AS count, coalesce(max(v), 0) AS max, coalesce(min(v), 0) AS min, coalesce(avg(v), 0) AS mean,
              coalesce(percentile_disc(0.5) WITHIN GROUP (ORDER BY v), 0) AS p50,
              coalesce(percentile_disc(0.9) WITHIN GROUP (ORDER BY v), 0) AS p90,
              coalesce(percentile_disc(0.99) WITHIN GROUP (ORDER BY v), 0) AS p99 FROM v`,
    );
    expect(summary.count).toBeGreaterThan(0);
    expect({ metric, ...res.body.summary, mean: undefined }).toEqual({ metric, ...summary, mean: undefined });
    expect(res.body.summary.mean).toBeCloseTo(summary.mean, 9);
    const bins = await sql<{ lower: number; count: number }>(
      `WITH ${valuesOf(domain, metric)}
       SELECT CASE WHEN v < 1 THEN 0 ELSE power(2, floor(log(2, v::numeric)))::float8 END AS lower, count(*)::int AS count FROM v GROUP BY 1`,
    );
    const expected = new Map(bins.map((bin) => [Number(bin.lower), bin.count]));
    for (const bin of res.body.bins)
      expect({ metric, lower: bin.x_lower, count: bin.count }).toEqual({
        metric,
        lower: bin.x_lower,
        count: expected.get(bin.x_lower) ?? 0,
      });
    expect(res.body.bins.reduce((sum: number, bin: { count: number }) => sum + bin.count, 0)).toBe(summary.count);
  }

  async function expectInequality(domain: CatalogueDomain, metric: string) {
    const res = await post('analytics.getInequality', { domain, metric, scope: 'global' }).expect(200);
    const ordered = `WITH ${valuesOf(domain, metric)}, p AS (SELECT v FROM v WHERE v > 0),
      o AS (SELECT v, row_number() OVER (ORDER BY v, random()) AS rn, sum(v) OVER (ORDER BY v ROWS UNBOUNDED PRECEDING) AS cum FROM p),
      t AS (SELECT count(*)::int AS n, coalesce(sum(v), 0)::float8 AS s FROM p)`;
    const [whole] = await sql<{ n: number; s: number; gini: number | null; top1: number; top10: number; top50: number }>(
      `${ordered} SELECT n, s,
         (SELECT 2 * sum(rn * v) / nullif(n * s, 0) - (n + 1.0) / nullif(n, 0) FROM o) AS gini,
         (SELECT coalesce(sum(v), 0) FROM o WHERE rn > n - ceil(0.01 * n)) / nullif(s, 0) AS top1,
         (SELECT coalesce(sum(v), 0) FROM o WHERE rn > n - ceil(0.1 * n)) / nullif(s, 0) AS top10,
         (SELECT coalesce(sum(v), 0) FROM o WHERE rn > n - ceil(0.5 * n)) / nullif(s, 0) AS top50
       FROM t`,
    );
    const body = res.body;
    expect({ metric, count: body.count, totalValue: body.totalValue }).toEqual({ metric, count: whole.n, totalValue: whole.s });
    expect(body.gini).toBeCloseTo(whole.gini ?? 0, 9);
    expect(body.top1PercentShare).toBeCloseTo(whole.top1 ?? 0, 9);
    expect(body.top10PercentShare).toBeCloseTo(whole.top10 ?? 0, 9);
    expect(body.top50PercentShare).toBeCloseTo(whole.top50 ?? 0, 9);
    const points = await sql<{ k: number; share: number }>(
      `${ordered} SELECT DISTINCT k::int, coalesce((SELECT cum FROM o WHERE rn = k) / nullif(s, 0), 0)::float8 AS share
         FROM t, generate_series(0, 100) j, round(j * n / 100.0) AS k ORDER BY 1`,
    );
    if (whole.n) {
      expect(body.points.length).toBe(points.length);
      body.points.forEach((point: { popShare: number; valueShare: number }, i: number) => {
        expect(point.popShare).toBeCloseTo(points[i].k / whole.n, 12);
        expect(point.valueShare).toBeCloseTo(points[i].share, 9);
      });
    }
  }

  async function expectBivariate(domain: CatalogueDomain, x: string, y: string) {
    const rows = await sql<{ lower: number; count: number; avg: number; median: number }>(
      `SELECT CASE WHEN ${x} < 1 THEN 0 ELSE power(2, floor(log(2, ${x}::numeric)))::float8 END AS lower, count(*)::int AS count,
              avg(${y})::float8 AS avg, (percentile_disc(0.5) WITHIN GROUP (ORDER BY ${y}))::float8 AS median
         FROM (${RECOMPUTED[domain]}) r WHERE ${x} IS NOT NULL AND ${y} IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const agg of ['avg', 'median', 'count'] as const) {
      const res = await post('analytics.getBivariate', { domain, x, y, agg, scope: 'global' }).expect(200);
      expect(res.body.buckets.map((b: { x_bucket: number; count: number }) => [b.x_bucket, b.count])).toEqual(
        rows.map((r) => [r.lower, r.count]),
      );
      res.body.buckets.forEach((bucket: { y_value: number }, i: number) =>
        expect(bucket.y_value).toBeCloseTo(agg === 'count' ? rows[i].count : rows[i][agg], 9),
      );
    }
  }

  async function expectEverything() {
    for (const domain of ['badges', 'apps'] as const) {
      for (const { id } of CATALOGUE_METRICS[domain]) {
        await expectDistribution(domain, id);
        await expectInequality(domain, id);
      }
    }
    await expectBivariate('badges', 'scarcity', 'holders');
    await expectBivariate('badges', 'holders', 'first_completion_age');
    await expectBivariate('apps', 'owners', 'owners');
  }

  beforeAll(async () => {
    ctx = await startPipeline('analytics_catalogue', { env: { UPDATE_COOLDOWN_SECONDS: '0' } });
    key = await ctx.apiKey(2);
    await ctx.startWorker();
    await refresh(Array.from({ length: 30 }, (_, i) => i + 2));
  }, 120_000);
  // Closing the API, the worker and the simulator took over 30 s on the loaded shared machine.
  afterAll(() => ctx.close(), 120_000);

  it('should answer as a full recomputation from the holdings does, and again within 15 s of a burst of updates', async () => {
    await eventually(expectEverything);
    // Later runs: holdings gained and lost, new badges and apps in the catalogue.
    const [before] = await sql<{ badges: number; holders: number }>(
      'SELECT (SELECT count(*) FROM badges)::int AS badges, (SELECT count(*) FROM account_badges)::int AS holders',
    );
    ctx.clock.advance(60 * 86_400_000);
    await refresh([2, 5, 9, 14, 20, 27, 33, 34, 35, 36, 37, 38, 39, 40]);
    const [after] = await sql<{ badges: number; holders: number }>(
      'SELECT (SELECT count(*) FROM badges)::int AS badges, (SELECT count(*) FROM account_badges)::int AS holders',
    );
    // The burst changed what the answers are over (else the second comparison could not fail on stale values).
    expect(after).not.toEqual(before);
    await eventually(expectEverything);
  }, 240_000);

  it('should list the domains with their metrics and the global scope, and refuse what they do not serve', async () => {
    const listed = await post('analytics.listMetrics', {}).expect(200);
    const domains = new Map(listed.body.domains.map((d: { id: string }) => [d.id, d]));
    expect([...domains.keys()]).toEqual(['accounts', 'badges', 'apps']);
    for (const domain of ['badges', 'apps'] as const) {
      const listedDomain = domains.get(domain) as { metrics: { id: string }[]; scopes: { id: string }[] };
      expect(listedDomain.metrics.map((m) => m.id)).toEqual(CATALOGUE_METRICS[domain].map((m) => m.id));
      expect(listedDomain.scopes.map((s) => s.id)).toEqual(['global']);
    }
    const refused = async (path: string, body: Record<string, unknown>, field: string) => {
      const res = await post(path, body).expect(422);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(JSON.stringify(res.body)).toContain(field);
    };
    await refused('analytics.getDistribution', { domain: 'badges', metric: 'holders', scope: 'country', scope_value: 'DE' }, 'body.scope');
    await refused('analytics.getInequality', { domain: 'apps', metric: 'owners', scope: 'region', scope_value: 'Europe' }, 'body.scope');
    await refused('analytics.getDistribution', { domain: 'badges', metric: 'xp', scope: 'global' }, 'body.metric');
    await refused('analytics.getDistribution', { domain: 'accounts', metric: 'holders', scope: 'global' }, 'body.metric');
    await refused('analytics.getBivariate', { domain: 'badges', x: 'holders', y: 'owners', agg: 'avg', scope: 'global' }, 'body.y');
    await refused('analytics.getMetricByScope', { domain: 'badges', metric: 'holders', dimension: 'country', agg: 'avg' }, 'body.domain');
    await refused('analytics.getTrend', { domain: 'apps', metric: 'owners', scope: 'global', window: '7d' }, 'body.domain');
    const { sessionToken } = await ctx.session(5);
    const mine = await post('analytics.getMyPercentiles', { domain: 'badges', scope: 'global' }, sessionToken).expect(422);
    expect(JSON.stringify(mine.body)).toContain('body.domain');
  });
});
