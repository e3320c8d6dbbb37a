import { ACCOUNT_METRICS, metricValueSql } from '../../src/analytics/analytics-catalogue';
import { RUN_COUNTERS } from '../../src/analytics/trends/seeded-trends';
import { dayOf } from '../../src/analytics/trends/trend-snapshots';
import { seedPopulation } from '../../src/seed/seed-population';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { matchesDocument } from '../support/wire-answers';

/**
 * `npm run seed` writes a trend snapshot for every day its runs cover: each compared, metric by metric and scope by
 * scope, with percentile_disc over the accounts as their latest completed run on or before that day left them
 * (a recomputation from `account_updates` in SQL), and served by analytics.getTrend right after the seed.
 */
describe('seed: trend snapshots of the seeded days', () => {
  let ctx: PipelineContext;
  let key: string;
  const ACCOUNTS = 300;
  const q = <T>(sql: string, params: unknown[] = []) => ctx.dataSource.query(sql, params) as Promise<T[]>;

  beforeAll(async () => {
    ctx = await startPipeline('seeded_trends', { accounts: ACCOUNTS });
    await seedPopulation(ctx.config, { accounts: ACCOUNTS, seed: 7, threads: 0 });
    key = await ctx.apiKey(1);
  }, 300_000);
  afterAll(() => ctx.close(), 120_000);

  /** Day `day`'s rows as writeTrendSnapshot's statement gives them over the accounts as of that day's end. */
  async function recomputed(day: string) {
    const rows: Record<string, unknown>[] = [];
    for (const metric of ACCOUNT_METRICS) {
      const value = RUN_COUNTERS[metric.id] ? `(l.after->>'${RUN_COUNTERS[metric.id]}')::int` : metricValueSql(metric, '$1::date');
      rows.push(
        ...(await q<Record<string, unknown>>(
          `WITH l AS (SELECT DISTINCT ON (u.account_id) u.account_id, u.after FROM account_updates u
                       WHERE u.status = 'completed' AND (u.finished_at AT TIME ZONE 'UTC')::date <= $1::date
                       ORDER BY u.account_id, u.finished_at DESC, u.run_id DESC)
           SELECT '${metric.id}' AS metric, scope_key, count, coalesce(q[1], 0) AS p50, coalesce(q[2], 0) AS p90, coalesce(q[3], 0) AS p99 FROM (
             SELECT CASE WHEN grouping(r) = 0 THEN 'r:' || r WHEN grouping(c) = 0 THEN 'c:' || c ELSE 'g' END AS scope_key,
                    count(v)::int AS count, percentile_disc(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY v) AS q
               FROM (SELECT lower(trim(a.region)) AS r, lower(trim(a.country_name)) AS c, ${value} AS v
                       FROM l JOIN accounts a ON a.account_id = l.account_id WHERE a.updated_at IS NOT NULL) x
              GROUP BY GROUPING SETS ((), (r), (c))
             HAVING (grouping(r) = 1 OR coalesce(r, '') <> '') AND (grouping(c) = 1 OR coalesce(c, '') <> '')) s`,
          [day],
        )),
      );
    }
    const order = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      `${a.metric}/${a.scope_key}`.localeCompare(`${b.metric}/${b.scope_key}`);
    return rows.map((row) => ({ ...row, p50: Number(row.p50), p90: Number(row.p90), p99: Number(row.p99) })).sort(order);
  }

  it('should hold a snapshot per seeded day, each as percentile_disc over the accounts as of that day', async () => {
    const today = dayOf(Date.now());
    const [span] = await q<{ first: string; days: number }>(
      `SELECT to_char(min((finished_at AT TIME ZONE 'UTC')::date), 'YYYY-MM-DD') AS first,
              (SELECT count(DISTINCT day)::int FROM analytics_daily_quantiles) AS days
         FROM account_updates WHERE status = 'completed'`,
    );
    // Every day from the first run's to the seed's own (the runs span ~120 days).
    const expectedDays = Math.round((Date.parse(today) - Date.parse(span.first)) / 86_400_000) + 1;
    expect(expectedDays).toBeGreaterThan(90);
    expect(span.days).toBe(Math.min(expectedDays, 121));
    const stored = async (day: string) =>
      (
        await q<Record<string, unknown>>(
          `SELECT metric, scope_key, count, p50, p90, p99 FROM analytics_daily_quantiles WHERE day = $1::date`,
          [day],
        )
      ).sort((a, b) => `${a.metric}/${a.scope_key}`.localeCompare(`${b.metric}/${b.scope_key}`));
    const ago = (days: number) => dayOf(Date.now() - days * 86_400_000);
    for (const day of [today, ago(1), ago(7), ago(29), ago(31), ago(60), ago(100), [span.first, ago(120)].sort().at(-1)!]) {
      const expected = await recomputed(day);
      expect(expected.length).toBeGreaterThan(ACCOUNT_METRICS.length);
      expect({ day, rows: await stored(day) }).toEqual({ day, rows: expected });
    }
    // Populations grow as accounts get their first run: the comparison sees different days.
    const counts = await q<{ count: number }>(
      `SELECT count FROM analytics_daily_quantiles WHERE metric = 'xp' AND scope_key = 'g' ORDER BY day`,
    );
    expect(counts[0].count).toBeLessThan(counts.at(-1)!.count);
  }, 120_000);

  it('should serve 7, 30 and 90 days of points right after the seed', async () => {
    for (const [window, days] of [
      ['7d', 7],
      ['30d', 30],
      ['90d', 90],
    ] as const) {
      const res = await ctx
        .http()
        .post('/v1/analytics.getTrend')
        .set('Authorization', `Bearer ${key}`)
        .send({ domain: 'accounts', metric: 'xp', scope: 'global', window })
        .expect(matchesDocument('analytics.getTrend'))
        .expect(200);
      expect(res.body.points).toHaveLength(days);
      expect(res.body.points.at(-1).date).toBe(dayOf(Date.now()));
    }
  });
});
