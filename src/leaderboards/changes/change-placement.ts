import { DataSource, EntityManager } from 'typeorm';
import { CHANGE_COLUMNS, LIVE_WINDOWS, LiveWindow, MAX_LIVE_DAYS, WINDOW_DAYS } from './change-keys';

const DAY_MS = 86_400_000;

/** Where one account stands in every live window, as computed from the committed rows at `stamp`. */
export interface Placement {
  accountId: number;
  /** Hidden accounts keep their place in the rank arithmetic but are never listed. */
  hidden: boolean;
  /** The account's current score per column. */
  cur: Record<string, number>;
  windows: Record<LiveWindow, { old: Record<string, number> } | null>;
}

interface AccountRow {
  now: Date;
  account_id: number | null;
  hidden: boolean;
  [column: string]: unknown;
}

interface RunRow {
  account_id: number;
  finished_at: Date;
  before: Record<string, unknown> | null;
  has_earlier: boolean;
}

/**
 * Reads the accounts' current scores and their completed runs of the longest live window, and places each in every
 * live window: a *mover* of a window has a completed run in it that was not its first ever (a first run has no
 * "before"); its window-start (old) score is what its earliest such run found before it ran. Returns the
 * database's clock at the read, which orders placements of the same account (see BoardChanges.place).
 */
export async function readPlacements(
  db: DataSource | EntityManager,
  accountIds: number[],
): Promise<{ stamp: number; placements: Placement[] }> {
  const columns = CHANGE_COLUMNS.map(({ column }) => `a.${column}`).join(', ');
  const accounts: AccountRow[] = await db.query(
    `WITH t AS (SELECT now() AS now)
     SELECT t.now, a.account_id, ${columns},
            EXISTS (SELECT 1 FROM account_settings s WHERE s.account_id = a.account_id AND s.hidden) AS hidden
       FROM t LEFT JOIN accounts a ON a.account_id = ANY($1) AND a.updated_at IS NOT NULL`,
    [accountIds],
  );
  const now = accounts[0].now;
  const refreshed = accounts.filter((row) => row.account_id !== null);
  if (!refreshed.length) return { stamp: now.getTime(), placements: [] };
  // ix_account_updates_account_completed: the runs of the longest live window, and one probe each for an earlier run.
  const runs: RunRow[] = await db.query(
    `SELECT u.account_id, u.finished_at, u.before,
            EXISTS (SELECT 1 FROM account_updates p
                     WHERE p.account_id = u.account_id AND p.status = 'completed' AND p.finished_at < u.finished_at) AS has_earlier
       FROM account_updates u
      WHERE u.account_id = ANY($1) AND u.status = 'completed' AND u.finished_at >= $2
      ORDER BY u.account_id, u.finished_at`,
    [refreshed.map((row) => row.account_id), new Date(now.getTime() - MAX_LIVE_DAYS * DAY_MS)],
  );
  const byAccount = new Map<number, RunRow[]>();
  for (const run of runs) {
    const list = byAccount.get(run.account_id) ?? [];
    list.push(run);
    byAccount.set(run.account_id, list);
  }
  const placements = refreshed.map((row) => {
    const cur = Object.fromEntries(CHANGE_COLUMNS.map(({ column }) => [column, Number(row[column] ?? 0)]));
    return {
      accountId: row.account_id!,
      hidden: row.hidden,
      cur,
      windows: placeInWindows(now.getTime(), cur, byAccount.get(row.account_id!) ?? []),
    };
  });
  return { stamp: now.getTime(), placements };
}

/** The account's window-start scores per window (null where it did not move), from its runs in time order. */
function placeInWindows(now: number, cur: Record<string, number>, runs: RunRow[]): Placement['windows'] {
  const windows = {} as Placement['windows'];
  for (const window of LIVE_WINDOWS) {
    const since = now - WINDOW_DAYS[window] * DAY_MS;
    const first = runs.find((run) => run.has_earlier && run.finished_at.getTime() >= since);
    windows[window] = first
      ? {
          // A counter the run did not record (older runs) counts as unchanged, as the per-request query had it.
          old: Object.fromEntries(
            CHANGE_COLUMNS.map(({ column, counter }) => {
              const value = first.before?.[counter];
              const old = value === null || value === undefined || value === '' ? NaN : Number(value);
              return [column, Number.isFinite(old) ? old : cur[column]];
            }),
          ),
        }
      : null;
  }
  return windows;
}
