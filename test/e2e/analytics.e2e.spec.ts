import { ACCOUNT_METRICS, metricValueSql } from '../../src/analytics/analytics-catalogue';
import { TrendSnapshotter } from '../../src/analytics/trends/trend-snapshotter.service';
import { dayOf, writeTrendSnapshot } from '../../src/analytics/trends/trend-snapshots';
import { RankReplicaService } from '../../src/ranks/replica/rank-replica.service';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { matchesDocument } from '../support/wire-answers';

/**
 * The analytics reads against a full recomputation in SQL (percentile_disc, cume_dist, window sums) over the refreshed
 * accounts of each scope, after a burst of updates: every answer, metric by metric, scope by scope.
 */

type Scope = { scope: string; scope_value?: string; where: string; params: unknown[] };

const HEAVY = ['xp', 'playtime', 'badges', 'apps', 'bans', 'donations', 'level', 'friends', 'account_age'];
const TODAY = "(now() AT TIME ZONE 'UTC')::date";
/** A metric's SQL value of an `accounts a` row (account_age: whole UTC days from its creation to `day`, null if unknown). */
const columnOf = (metric: string, day = TODAY) =>
  metricValueSql(
    ACCOUNT_METRICS.find((m) => m.id === metric)!,
    day,
  );

describe('analytics (population statistics)', () => {
  let ctx: PipelineContext;
  let key: string;
  let scopes: Scope[];
  const post = (path: string, body: Record<string, unknown>, token = key) =>
    ctx.http().post(`/v1/${path}`).set('Authorization', `Bearer ${token}`).send(body).expect(matchesDocument(path));
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => ctx.dataSource.query(text, params);
  const refresh = async (ids: number[]) => {
    for (const accountId of ids) await post('account.queueUpdate', { id: { accountId } }).expect(204);
    for (const accountId of ids) await ctx.waitForCompletion(accountId, key, 20_000);
  };
  /**
   * Retries `check` until it passes, for up to the 60 s a completed update may take to show (the replica follows the
   * change feed within a second; Lorenz curves and bivariate tables are computed again within 10–15 s of a change).
   */
  const eventually = async (check: () => Promise<void>, ms = 60_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  /** The scope's refreshed accounts; with a metric, those it counts (account age: a known creation time). */
  const inScope = (scope: Scope, metric?: string) =>
    `a.updated_at IS NOT NULL AND ${scope.where}${metric ? ` AND ${columnOf(metric)} IS NOT NULL` : ''}`;

  async function expectedDistribution(metric: string, scope: Scope) {
    const column = columnOf(metric);
    const [summary] = await sql<Record<string, number>>(
      `SELECT count(*)::int AS count, coalesce(max(${column}), 0)::float8 AS max, coalesce(min(${column}), 0)::float8 AS min,
              coalesce(avg(${column}), 0)::float8 AS mean,
              coalesce(percentile_disc(0.5) WITHIN GROUP (ORDER BY ${column}), 0)::float8 AS p50,
              coalesce(percentile_disc(0.9) WITHIN GROUP (ORDER BY ${column}), 0)::float8 AS p90,
              coalesce(percentile_disc(0.99) WITHIN GROUP (ORDER BY ${column}), 0)::float8 AS p99
         FROM accounts a WHERE ${inScope(scope, metric)}`,
      scope.params,
    );
    const bins = await sql<{ lower: number; count: number }>(
      `SELECT CASE WHEN ${column} < 1 THEN 0 ELSE power(2, floor(log(2, ${column}::numeric)))::float8 END AS lower, count(*)::int AS count
         FROM accounts a WHERE ${inScope(scope, metric)} GROUP BY 1`,
      scope.params,
    );
    return { summary, bins: new Map(bins.map((bin) => [Number(bin.lower), bin.count])) };
  }

  async function expectDistribution(metric: string, scope: Scope) {
    const res = await post('analytics.getDistribution', {
      domain: 'accounts',
      metric,
      scope: scope.scope,
      scope_value: scope.scope_value,
    }).expect(200);
    const expected = await expectedDistribution(metric, scope);
    const { summary } = res.body;
    expect({ metric, scope: scope.scope, ...summary, mean: undefined }).toEqual({
      metric,
      scope: scope.scope,
      ...expected.summary,
      mean: undefined,
    });
    expect(summary.mean).toBeCloseTo(expected.summary.mean, 9);
    // Every bin's count exact; together they hold every account; the empty ones are the log bins below the maximum.
    for (const bin of res.body.bins) {
      expect(bin.x_upper).toBe(bin.x_lower === 0 ? 1 : bin.x_lower * 2);
      expect({ metric, lower: bin.x_lower, count: bin.count }).toEqual({
        metric,
        lower: bin.x_lower,
        count: expected.bins.get(bin.x_lower) ?? 0,
      });
    }
    expect(res.body.bins.reduce((sum: number, bin: { count: number }) => sum + bin.count, 0)).toBe(expected.summary.count);
    if (expected.summary.count) expect(res.body.bins.at(-1).x_upper).toBeGreaterThan(expected.summary.max);
  }

  async function expectInequality(metric: string, scope: Scope) {
    const column = columnOf(metric);
    const res = await post('analytics.getInequality', {
      domain: 'accounts',
      metric,
      scope: scope.scope,
      scope_value: scope.scope_value,
    }).expect(200);
    const ordered = `WITH v AS (SELECT ${column}::float8 AS v FROM accounts a WHERE ${inScope(scope)} AND ${column} > 0),
      o AS (SELECT v, row_number() OVER (ORDER BY v, random()) AS rn, sum(v) OVER (ORDER BY v ROWS UNBOUNDED PRECEDING) AS cum FROM v),
      t AS (SELECT count(*)::int AS n, coalesce(sum(v), 0)::float8 AS s FROM v)`;
    const [whole] = await sql<{ n: number; s: number; gini: number | null; top1: number; top10: number; top50: number }>(
      `${ordered} SELECT n, s,
         (SELECT 2 * sum(rn * v) / nullif(n * s, 0) - (n + 1.0) / nullif(n, 0) FROM o) AS gini,
         (SELECT coalesce(sum(v), 0) FROM o WHERE rn > n - ceil(0.01 * n)) / nullif(s, 0) AS top1,
         (SELECT coalesce(sum(v), 0) FROM o WHERE rn > n - ceil(0.1 * n)) / nullif(s, 0) AS top10,
         (SELECT coalesce(sum(v), 0) FROM o WHERE rn > n - ceil(0.5 * n)) / nullif(s, 0) AS top50
       FROM t`,
      scope.params,
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
      scope.params,
    );
    expect(body.points[0]).toEqual({ popShare: 0, valueShare: 0 });
    expect(body.points.at(-1)).toEqual({ popShare: 1, valueShare: 1 });
    if (whole.n) {
      expect(body.points.length).toBe(points.length);
      body.points.forEach((point: { popShare: number; valueShare: number }, i: number) => {
        expect(point.popShare).toBeCloseTo(points[i].k / whole.n, 12);
        expect(point.valueShare).toBeCloseTo(points[i].share, 9);
      });
    }
  }

  async function expectBivariate(x: string, y: string, scope: Scope) {
    const [xc, yc] = [columnOf(x), columnOf(y)];
    const rows = await sql<{ lower: number; count: number; avg: number; median: number }>(
      `SELECT CASE WHEN ${xc} < 1 THEN 0 ELSE power(2, floor(log(2, ${xc}::numeric)))::float8 END AS lower, count(*)::int AS count,
              avg(${yc})::float8 AS avg, (percentile_disc(0.5) WITHIN GROUP (ORDER BY ${yc}))::float8 AS median
         FROM accounts a WHERE ${inScope(scope, x)} AND ${yc} IS NOT NULL GROUP BY 1 ORDER BY 1`,
      scope.params,
    );
    for (const agg of ['avg', 'median', 'count'] as const) {
      const res = await post('analytics.getBivariate', {
        domain: 'accounts',
        x,
        y,
        agg,
        scope: scope.scope,
        scope_value: scope.scope_value,
      }).expect(200);
      expect(res.body.buckets.map((b: { x_bucket: number; count: number }) => [b.x_bucket, b.count])).toEqual(
        rows.map((r) => [r.lower, r.count]),
      );
      res.body.buckets.forEach((bucket: { y_value: number }, i: number) =>
        expect(bucket.y_value).toBeCloseTo(agg === 'count' ? rows[i].count : rows[i][agg], 9),
      );
    }
  }

  async function expectMetricByScope(metric: string, dimension: 'country' | 'region') {
    const column = columnOf(metric);
    const group = dimension === 'country' ? 'upper(a.country_code)' : 'a.region';
    const rows = await sql<{ name: string; count: number; avg: number; median: number }>(
      `SELECT ${group} AS name, count(${column})::int AS count, avg(${column})::float8 AS avg,
              (percentile_disc(0.5) WITHIN GROUP (ORDER BY ${column}))::float8 AS median
         FROM accounts a WHERE a.updated_at IS NOT NULL AND ${group} IS NOT NULL GROUP BY 1 HAVING count(${column}) > 0`,
    );
    const expected = new Map(rows.map((row) => [row.name, row]));
    for (const agg of ['avg', 'median', 'count'] as const) {
      const res = await post('analytics.getMetricByScope', { domain: 'accounts', metric, dimension, agg }).expect(200);
      expect(res.body.buckets.length).toBe(rows.length);
      for (const bucket of res.body.buckets) {
        const row = expected.get(dimension === 'country' ? bucket.countryCode : bucket.region)!;
        expect({ bucket: bucket.countryCode ?? bucket.region, count: bucket.count }).toEqual({
          bucket: bucket.countryCode ?? bucket.region,
          count: row.count,
        });
        expect(bucket.value).toBeCloseTo(agg === 'count' ? row.count : row[agg], 9);
      }
    }
  }

  async function expectEverything() {
    for (const scope of scopes) {
      for (const metric of ACCOUNT_METRICS.map((m) => m.id)) await expectDistribution(metric, scope);
      for (const metric of HEAVY) await expectInequality(metric, scope);
      await expectBivariate('xp', 'playtime', scope);
      await expectBivariate('apps', 'badges', scope);
      await expectBivariate('level', 'xp', scope);
      await expectBivariate('friends', 'account_age', scope);
      await expectBivariate('account_age', 'donations', scope);
    }
    for (const metric of HEAVY) {
      await expectMetricByScope(metric, 'country');
      await expectMetricByScope(metric, 'region');
    }
  }

  beforeAll(async () => {
    ctx = await startPipeline('analytics', { env: { UPDATE_COOLDOWN_SECONDS: '0' } });
    key = await ctx.apiKey(2);
    await ctx.startWorker();
    await refresh(Array.from({ length: 40 }, (_, i) => i + 2));
    const replica = ctx.app.get(RankReplicaService);
    const deadline = Date.now() + 20_000;
    while (!replica.serving && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    // The most populated country, region, state and city among the refreshed accounts.
    const top = async (columns: string) =>
      (
        await sql<Record<string, string>>(
          `SELECT ${columns} FROM accounts a WHERE a.updated_at IS NOT NULL AND ${columns
            .split(', ')
            .map((c) => `${c} IS NOT NULL`)
            .join(' AND ')}
          GROUP BY ${columns} ORDER BY count(*) DESC, 1 LIMIT 1`,
        )
      )[0];
    const country = await top('a.country_code, a.country_name');
    const region = await top('a.region');
    const state = await top('a.country_code, a.country_name, a.state_name');
    const city = await top('a.country_code, a.country_name, a.state_name, a.city_name');
    scopes = [
      { scope: 'global', where: 'true', params: [] },
      { scope: 'region', scope_value: region.region.toUpperCase(), where: 'lower(a.region) = lower($1)', params: [region.region] },
      { scope: 'country', scope_value: country.country_code, where: 'lower(a.country_name) = lower($1)', params: [country.country_name] },
      { scope: 'country', scope_value: country.country_name, where: 'lower(a.country_name) = lower($1)', params: [country.country_name] },
      {
        scope: 'state',
        scope_value: `${state.country_code}|${state.state_name}`,
        where: 'lower(a.country_name) = lower($1) AND lower(a.state_name) = lower($2)',
        params: [state.country_name, state.state_name],
      },
      {
        scope: 'city',
        scope_value: `${city.country_name}|${city.state_name}|${city.city_name}`,
        where: 'lower(a.country_name) = lower($1) AND lower(a.state_name) = lower($2) AND lower(a.city_name) = lower($3)',
        params: [city.country_name, city.state_name, city.city_name],
      },
    ];
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
  });

  it('should answer every read as a full recomputation in SQL does, and again after a burst of updates', async () => {
    await eventually(expectEverything);
    // A hidden account stays in every population, as on the boards (the recomputation does not filter it either).
    const { sessionToken } = await ctx.session(7);
    await post('account.updateSettings', { hidden: true, language: 'en', vanity: null }, sessionToken).expect(204);
    expect(await sql('SELECT 1 FROM account_settings WHERE account_id = 7 AND hidden')).toHaveLength(1);
    ctx.clock.advance(45 * 86_400_000);
    await refresh([2, 5, 7, 9, 14, 20, 27, 33, 41, 42, 43, 44, 45]);
    await eventually(expectEverything);
  }, 300_000);

  it('should give a signed-in user their exact percentile (cume_dist) on every metric, 401 to a key', async () => {
    const accountId = 14;
    const { sessionToken } = await ctx.session(accountId);
    const [me] = await sql<Record<string, string>>('SELECT country_name, country_code FROM accounts WHERE account_id = $1', [accountId]);
    for (const scope of [
      { scope: 'global', where: 'true', params: [] as unknown[] },
      { scope: 'country', scope_value: me.country_code, where: 'lower(a.country_name) = lower($1)', params: [me.country_name] },
    ].filter((s) => s.scope === 'global' || me.country_name)) {
      await eventually(async () => {
        const res = await post(
          'analytics.getMyPercentiles',
          { domain: 'accounts', scope: scope.scope, scope_value: scope.scope_value },
          sessionToken,
        ).expect(200);
        const [{ n }] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM accounts a WHERE ${inScope(scope)}`, scope.params);
        expect(res.body.count).toBe(n);
        // Every metric but account age when the platform gave no creation time.
        const [{ known }] = await sql<{ known: boolean }>(
          `SELECT platform_created_at IS NOT NULL AS known FROM accounts WHERE account_id = $1`,
          [accountId],
        );
        expect(res.body.percentiles.map((p: { metric: string }) => p.metric)).toEqual(
          ACCOUNT_METRICS.map((m) => m.id).filter((id) => known || id !== 'account_age'),
        );
        for (const { metric, percentile, value } of res.body.percentiles) {
          const column = columnOf(metric);
          const [row] = await sql<{ value: number; cume: number }>(
            `SELECT value::float8, cume::float8 FROM (SELECT a.account_id, ${column} AS value, cume_dist() OVER (ORDER BY ${column}) AS cume
               FROM accounts a WHERE ${inScope(scope, metric)}) r WHERE account_id = ${accountId}`,
            scope.params,
          );
          expect({ metric, value }).toEqual({ metric, value: row.value });
          expect(percentile).toBeCloseTo(100 * row.cume, 9);
        }
      });
    }
    await post('analytics.getMyPercentiles', { domain: 'accounts', scope: 'global' }).expect(401);
  }, 60_000);

  it("should serve daily quantile trends from the worker's snapshots, as percentile_disc gave them each day", async () => {
    const today = dayOf(Date.now());
    // The worker wrote today's at its start (before any account was refreshed): it is there, and not written twice.
    const [{ n }] = await sql<{ n: number }>('SELECT count(*)::int AS n FROM analytics_daily_quantiles WHERE day = $1', [today]);
    expect(n).toBeGreaterThan(0);
    expect(await ctx.worker!.get(TrendSnapshotter).snapshotIfMissing()).toBe(false);
    // Yesterday's as the population stood then (now: the worker's boot snapshot is older), today's as it stands.
    const query = (text: string, params: unknown[]) => ctx.dataSource.query(text, params);
    const yesterday = dayOf(Date.now() - 86_400_000);
    await writeTrendSnapshot(query, yesterday);
    const expected = async (column: string, scope: Scope) =>
      (
        await sql<Record<string, number>>(
          `SELECT count(${column})::int AS count,
                  coalesce(percentile_disc(0.5) WITHIN GROUP (ORDER BY ${column}), 0) AS p50,
                  coalesce(percentile_disc(0.9) WITHIN GROUP (ORDER BY ${column}), 0) AS p90,
                  coalesce(percentile_disc(0.99) WITHIN GROUP (ORDER BY ${column}), 0) AS p99
             FROM accounts a WHERE ${inScope(scope)}`,
          scope.params,
        )
      )[0];
    const before = new Map<string, Record<string, number>>();
    const trendScopes = scopes.filter((scope) => ['global', 'region', 'country'].includes(scope.scope));
    for (const scope of trendScopes)
      for (const metric of HEAVY)
        before.set(`${metric}/${scope.scope_value}`, await expected(columnOf(metric, `'${yesterday}'::date`), scope));
    ctx.clock.advance(10 * 86_400_000);
    await refresh([3, 4, 6, 8, 10]);
    await writeTrendSnapshot(query, today);
    for (const scope of trendScopes) {
      for (const metric of HEAVY) {
        const res = await post('analytics.getTrend', {
          domain: 'accounts',
          metric,
          scope: scope.scope,
          scope_value: scope.scope_value,
          window: '7d',
        }).expect(200);
        expect(res.body.points).toEqual([
          { date: yesterday, ...before.get(`${metric}/${scope.scope_value}`) },
          { date: today, ...(await expected(columnOf(metric, `'${today}'::date`), scope)) },
        ]);
      }
    }
    await post('analytics.getTrend', {
      domain: 'accounts',
      metric: 'xp',
      scope: 'city',
      scope_value: 'DE|Bavaria|Munich',
      window: '7d',
    }).expect((res) => expect([400, 422]).toContain(res.status));
  }, 60_000);

  it('should list every domain, metric and scope, and refuse unknown ids and scope values', async () => {
    const listed = await post('analytics.listMetrics', {}).expect(200);
    // The catalogue domains (badges, apps) follow: test/e2e/analytics-catalogue.e2e.spec.ts.
    expect(listed.body.domains.map((d: { id: string }) => d.id)).toEqual(['accounts', 'badges', 'apps']);
    expect(listed.body.domains[0].metrics.map((m: { id: string }) => m.id)).toEqual(ACCOUNT_METRICS.map((m) => m.id));
    expect(listed.body.domains[0].scopes.map((s: { id: string }) => s.id)).toEqual(['global', 'region', 'country', 'state', 'city']);
    expect(listed.body.domains[0].scopes[2].value_type).toContain('ISO');
    const refused = async (body: Record<string, unknown>) => {
      const res = await post('analytics.getDistribution', { domain: 'accounts', metric: 'xp', scope: 'global', ...body });
      expect([400, 422]).toContain(res.status);
      expect(res.headers['content-type']).toContain('application/problem+json');
    };
    await refused({ metric: 'level_of_nothing' });
    await refused({ domain: 'badges' });
    await refused({ scope: 'galaxy' });
    await refused({ scope: 'country' });
    await refused({ scope: 'country', scope_value: 'Atlantis' });
    await refused({ scope: 'region', scope_value: 'Middle Earth' });
    await refused({ scope: 'state', scope_value: 'DE' });
    // A real place nobody tracked lives in is an empty scope, not an error.
    const empty = await post('analytics.getDistribution', {
      domain: 'accounts',
      metric: 'xp',
      scope: 'city',
      scope_value: 'DE|Nowhere|Nothing',
    }).expect(200);
    expect(empty.body).toMatchObject({ bins: [], summary: { count: 0, min: 0, max: 0, mean: 0, p50: 0 } });
  });
});
