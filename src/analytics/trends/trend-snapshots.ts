import { ACCOUNT_METRICS, metricValueSql } from '../analytics-catalogue';

/** Snapshots are kept this long: the longest trend window (90 days) and some. */
export const TREND_RETENTION_DAYS = 120;

/** Runs one statement and answers its rows (an EntityManager's query, or a pg Client's rows). */
export type SqlQuery = (sql: string, parameters: unknown[]) => Promise<unknown[]>;

/** The UTC day of an instant, as the snapshots key it (`2026-12-06`). */
export const dayOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);

/**
 * Writes one day's snapshot: for every metric, the count and percentile_disc 0.5 / 0.9 / 0.99 of the refreshed
 * accounts (those at 0 included, as on the boards) globally, per region and per country, under the rank engine's scope
 * keys (account age: accounts with a known creation time, aged on that day). One statement per metric over `accounts` (GROUPING SETS: one read for the three levels); a whole-table
 * aggregate, which is why it runs once a day in the worker and never in a request. States and cities are not kept:
 * tens of thousands of scopes a day for trends few would read. Idempotent: a day written again is replaced.
 */
export async function writeTrendSnapshot(query: SqlQuery, day: string): Promise<number> {
  let written = 0;
  for (const metric of ACCOUNT_METRICS) {
    const rows = await query(
      `INSERT INTO analytics_daily_quantiles (metric, scope_key, day, count, p50, p90, p99)
       SELECT $1, scope_key, $2::date, count, coalesce(q[1], 0), coalesce(q[2], 0), coalesce(q[3], 0) FROM (
         SELECT CASE WHEN grouping(r) = 0 THEN 'r:' || r WHEN grouping(c) = 0 THEN 'c:' || c ELSE 'g' END AS scope_key,
                count(v)::int AS count, percentile_disc(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY v) AS q
           FROM (SELECT lower(trim(a.region)) AS r, lower(trim(a.country_name)) AS c, ${metricValueSql(metric, '$2::date')} AS v
                   FROM accounts a WHERE a.updated_at IS NOT NULL) x
          GROUP BY GROUPING SETS ((), (r), (c))
         HAVING (grouping(r) = 1 OR coalesce(r, '') <> '') AND (grouping(c) = 1 OR coalesce(c, '') <> '')) s
       ON CONFLICT (metric, scope_key, day) DO UPDATE
         SET count = excluded.count, p50 = excluded.p50, p90 = excluded.p90, p99 = excluded.p99
       RETURNING 1`,
      [metric.id, day],
    );
    written += rows.length;
  }
  await query(`DELETE FROM analytics_daily_quantiles WHERE day < $1::date - ${TREND_RETENTION_DAYS}`, [day]);
  return written;
}
