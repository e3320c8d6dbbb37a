import { ACCOUNT_METRICS } from '../analytics-catalogue';
import { SqlQuery, TREND_RETENTION_DAYS } from './trend-snapshots';

/**
 * The trend snapshots of the days before a seed's own day (`npm run seed`), rebuilt from the seeded update runs
 * (`account_updates`) so that getTrend's 7 / 30 / 90-day windows have a point per day right after seeding.
 *
 * The rule: day d's snapshot is what writeTrendSnapshot would have written at the end of UTC day d, had the accounts
 * held then what their runs recorded: the accounts with a completed run on or before d, each with the counters
 * (`after`) of its latest such run; the metrics no run records (awards, points, donations) at their stored value and
 * account age from the stored creation time, aged on d; scopes (region, country) from the stored location. Days from
 * the first seeded run (at most TREND_RETENTION_DAYS back) to the day before the seed's own, which writeTrendSnapshot
 * writes from the accounts as stored.
 *
 * Cost: one read of the runs joined to their accounts (in pages of account ids), then per metric one sort of the runs'
 * values and, per scope level, a walk of the runs in day order through a Fenwick tree per scope (counts per distinct
 * value): O(runs · log runs) per metric, not O(days · accounts) as a percentile_disc per day would be. Memory: about
 * 16 bytes per run and metric at once, plus the runs' counters (4 bytes each).
 */

/** Counter names in `account_updates.after` (TRACKED_COUNTERS) of the metrics whose columns the runs record. */
export const RUN_COUNTERS: Record<string, string> = {
  level: 'level',
  xp: 'xp',
  badges: 'badges',
  foil_badges: 'foilBadges',
  normal_badges: 'normalBadges',
  apps: 'apps',
  playtime: 'playtime',
  friends: 'friends',
  bans: 'bans',
  vac_bans: 'vacBans',
  game_bans: 'gameBans',
  site_score: 'siteScore',
};

const PAGE_ACCOUNTS = 25_000;
const DAY_MS = 86_400_000;
/** A missing value (account age with no creation time). */
const NONE = -2147483648;

export interface TrendRow {
  metric: string;
  scopeKey: string;
  day: string;
  count: number;
  p50: number;
  p90: number;
  p99: number;
}

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Growable Int32 columns. */
class Column {
  data = new Int32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  get values(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

interface Runs {
  /** Per run, in (account, finish time) order: its account's index, its UTC day number. */
  account: Int32Array;
  day: Int32Array;
  /** Per metric id: the value per run (NONE where not counted). */
  values: Map<string, Int32Array>;
  /** Per scope level, per account index: the scope's index (-1: none), and the scopes' keys. */
  levels: { scopeOf: Int32Array; keys: string[] }[];
}

async function readRuns(query: SqlQuery): Promise<Runs> {
  const [{ last }] = (await query('SELECT coalesce(max(account_id), 0)::int AS last FROM accounts', [])) as { last: number }[];
  const account = new Column();
  const day = new Column();
  const metrics = ACCOUNT_METRICS.map((metric) => metric.id);
  const columns = new Map(metrics.map((id) => [id, new Column()]));
  const levelColumns = [new Column(), new Column(), new Column()];
  const levelKeys = [new Map<string, number>([['g', 0]]), new Map<string, number>(), new Map<string, number>()];
  const scopeIndex = (level: number, key: string | null) => {
    if (!key) return -1;
    const keys = levelKeys[level];
    let index = keys.get(key);
    if (index === undefined) keys.set(key, (index = keys.size));
    return index;
  };
  const selected = ACCOUNT_METRICS.map((metric) =>
    RUN_COUNTERS[metric.id]
      ? `(u.after->>'${RUN_COUNTERS[metric.id]}')::int`
      : metric.histogram === 'account_age'
        ? `((a.platform_created_at AT TIME ZONE 'UTC')::date - '1970-01-01'::date)`
        : `a.${metric.column}`,
  );
  let accounts = 0;
  for (let from = 0; from < last; from += PAGE_ACCOUNTS) {
    const rows = (await query(
      `SELECT u.account_id AS id, (u.finished_at AT TIME ZONE 'UTC')::date - '1970-01-01'::date AS day,
              lower(trim(a.region)) AS r, lower(trim(a.country_name)) AS c, ARRAY[${selected.join(', ')}] AS v
         FROM account_updates u JOIN accounts a ON a.account_id = u.account_id
        WHERE u.status = 'completed' AND a.updated_at IS NOT NULL AND u.account_id > $1 AND u.account_id <= $2
        ORDER BY u.account_id, u.finished_at, u.run_id`,
      [from, from + PAGE_ACCOUNTS],
    )) as { id: number; day: number; r: string | null; c: string | null; v: (number | null)[] }[];
    let previous = -1;
    for (const row of rows) {
      if (row.id !== previous) {
        levelColumns[0].push(0);
        levelColumns[1].push(scopeIndex(1, row.r && `r:${row.r}`));
        levelColumns[2].push(scopeIndex(2, row.c && `c:${row.c}`));
        previous = row.id;
        accounts++;
      }
      account.push(accounts - 1);
      day.push(row.day);
      metrics.forEach((id, m) => columns.get(id)!.push(row.v[m] ?? NONE));
    }
  }
  return {
    account: account.values,
    day: day.values,
    values: new Map([...columns].map(([id, column]) => [id, column.values])),
    levels: levelColumns.map((column, level) => ({ scopeOf: column.values, keys: [...levelKeys[level].keys()] })),
  };
}

/**
 * The snapshot rows of the days `fromDay`..`throughDay` (inclusive), each metric handed to `emit` as computed. Exported
 * for the test, which compares the seed's own day with writeTrendSnapshot's.
 */
export async function computeSeededTrends(
  query: SqlQuery,
  fromDay: string,
  throughDay: string,
  emit: (rows: TrendRow[]) => Promise<void>,
): Promise<number> {
  const runs = await readRuns(query);
  const [first, last] = [dayNumber(fromDay), dayNumber(throughDay)];
  const n = runs.account.length;
  if (!n) return 0;
  // Runs in day order, a day's in (account, time) order: a counting sort by day, stable.
  const minDay = runs.day.reduce((min, day) => Math.min(min, day), Infinity);
  const maxDay = Math.max(
    last,
    runs.day.reduce((max, day) => Math.max(max, day), -Infinity),
  );
  const starts = new Int32Array(maxDay - minDay + 2);
  for (let i = 0; i < n; i++) starts[runs.day[i] - minDay + 1]++;
  for (let d = 1; d < starts.length; d++) starts[d] += starts[d - 1];
  const byDay = new Int32Array(n);
  const next = starts.slice();
  for (let i = 0; i < n; i++) byDay[next[runs.day[i] - minDay]++] = i;
  let written = 0;
  for (const metric of ACCOUNT_METRICS) {
    const values = runs.values.get(metric.id)!;
    const order = sortedByValue(values);
    const rows: TrendRow[] = [];
    for (const level of runs.levels) {
      const tree = new ScopeTrees(values, order, runs.account, level.scopeOf, level.keys.length);
      const present = new Int32Array(level.keys.length);
      for (let d = minDay; d <= Math.min(last, maxDay); d++) {
        for (let j = starts[d - minDay]; j < starts[d - minDay + 1]; j++) {
          const i = byDay[j];
          const scope = level.scopeOf[runs.account[i]];
          if (scope < 0) continue;
          const previous = i > 0 && runs.account[i - 1] === runs.account[i] ? i - 1 : -1;
          if (previous < 0) present[scope]++;
          else tree.remove(scope, previous);
          tree.add(scope, i);
        }
        if (d < first) continue;
        for (let scope = 0; scope < level.keys.length; scope++) {
          if (!present[scope]) continue;
          const count = tree.count[scope];
          const q = [0.5, 0.9, 0.99].map((p) => {
            if (!count) return 0;
            const k = Math.max(1, Math.ceil(p * count));
            // Account age falls as the creation day rises: the k-th lowest age is the k-th highest creation day.
            if (metric.histogram !== 'account_age') return tree.kth(scope, k);
            return Math.max(0, d - tree.kth(scope, count - k + 1));
          });
          rows.push({ metric: metric.id, scopeKey: level.keys[scope], day: dayText(d), count, p50: q[0], p90: q[1], p99: q[2] });
        }
      }
    }
    await emit(rows);
    written += rows.length;
  }
  return written;
}

/**
 * Run indexes in ascending value order (missing values left out): each (value, index) packed into one float and the
 * floats sorted natively, several times faster than a comparator over two million runs; a comparator where the packing
 * would not be exact.
 */
function sortedByValue(values: Int32Array): Int32Array {
  const counted: number[] = [];
  let [min, max] = [Infinity, -Infinity];
  for (let i = 0; i < values.length; i++) {
    if (values[i] === NONE) continue;
    counted.push(i);
    min = Math.min(min, values[i]);
    max = Math.max(max, values[i]);
  }
  const n = values.length;
  if ((max - min + 1) * n >= Number.MAX_SAFE_INTEGER) return Int32Array.from(counted).sort((a, b) => values[a] - values[b] || a - b);
  const packed = Float64Array.from(counted, (i) => (values[i] - min) * n + i).sort();
  return Int32Array.from(packed, (key) => key % n);
}

/**
 * Per scope, a Fenwick tree over the distinct values its runs ever take (counts of the scope's accounts at each), laid
 * side by side in one array: add / remove a run's value and the k-th lowest value in O(log distinct values).
 */
class ScopeTrees {
  readonly count: Int32Array;
  private readonly rank: Int32Array;
  private readonly offset: Int32Array;
  private readonly size: Int32Array;
  private readonly tree: Int32Array;
  private readonly valueAt: Int32Array;

  constructor(
    private readonly values: Int32Array,
    order: Int32Array,
    accountOf: Int32Array,
    scopeOf: Int32Array,
    scopes: number,
  ) {
    this.count = new Int32Array(scopes);
    this.size = new Int32Array(scopes);
    this.rank = new Int32Array(values.length);
    const lastValue = new Float64Array(scopes).fill(NaN);
    // Each run's 1-based rank among its scope's distinct values, walking the runs in value order.
    for (const i of order) {
      const scope = scopeOf[accountOf[i]];
      if (scope < 0) continue;
      if (lastValue[scope] !== values[i]) {
        this.size[scope]++;
        lastValue[scope] = values[i];
      }
      this.rank[i] = this.size[scope];
    }
    this.offset = new Int32Array(scopes + 1);
    for (let s = 0; s < scopes; s++) this.offset[s + 1] = this.offset[s] + this.size[s] + 1;
    this.tree = new Int32Array(this.offset[scopes]);
    this.valueAt = new Int32Array(this.offset[scopes]);
    for (const i of order) {
      const scope = scopeOf[accountOf[i]];
      if (scope >= 0) this.valueAt[this.offset[scope] + this.rank[i]] = values[i];
    }
  }

  add(scope: number, run: number): void {
    this.step(scope, run, 1);
  }

  remove(scope: number, run: number): void {
    this.step(scope, run, -1);
  }

  /** The k-th lowest value (1-based) among the scope's counted accounts. */
  kth(scope: number, k: number): number {
    const [base, size] = [this.offset[scope], this.size[scope]];
    let position = 0;
    for (let bit = 1 << (31 - Math.clz32(size)); bit > 0; bit >>= 1) {
      const nextPosition = position + bit;
      if (nextPosition <= size && this.tree[base + nextPosition] < k) {
        position = nextPosition;
        k -= this.tree[base + nextPosition];
      }
    }
    return this.valueAt[base + position + 1];
  }

  private step(scope: number, run: number, delta: number): void {
    if (this.values[run] === NONE) return;
    this.count[scope] += delta;
    const [base, size] = [this.offset[scope], this.size[scope]];
    for (let i = this.rank[run]; i <= size; i += i & -i) this.tree[base + i] += delta;
  }
}

/**
 * Writes the snapshots of the days before `today` that the seeded runs cover (see the rule above); answers the rows
 * written. Run by the seed beside writeTrendSnapshot of `today`.
 */
export async function writeSeededTrends(query: SqlQuery, today: string): Promise<number> {
  const from = dayText(dayNumber(today) - TREND_RETENTION_DAYS);
  const through = dayText(dayNumber(today) - 1);
  return computeSeededTrends(query, from, through, async (rows) => {
    for (let i = 0; i < rows.length; i += 20_000) {
      const batch = rows.slice(i, i + 20_000);
      await query(
        `INSERT INTO analytics_daily_quantiles (metric, scope_key, day, count, p50, p90, p99)
         SELECT * FROM unnest($1::text[], $2::text[], $3::date[], $4::int[], $5::int[], $6::int[], $7::int[])
         ON CONFLICT (metric, scope_key, day) DO UPDATE
           SET count = excluded.count, p50 = excluded.p50, p90 = excluded.p90, p99 = excluded.p99`,
        [
          batch.map((row) => row.metric),
          batch.map((row) => row.scopeKey),
          batch.map((row) => row.day),
          batch.map((row) => row.count),
          batch.map((row) => row.p50),
          batch.map((row) => row.p90),
          batch.map((row) => row.p99),
        ],
      );
    }
  });
}
