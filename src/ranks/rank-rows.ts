import { DataSource } from 'typeorm';
import type { PlacedAccount } from './replica/rank-replica';
import { RANKED_COLUMNS, cellOf } from './rank-scopes';

/** An account row as the rank engine reads it: the ranked columns and the location. */
export type RankRow = Record<string, number | string | null> & { account_id: number };

const BATCH = 5_000;

/** The rows of refreshed accounts; a caller adds its own condition after `WHERE` (RankEngine.place, readRankRows). */
export const RANK_ROWS_SQL = `SELECT a.account_id, a.region, a.country_code, a.country_name, a.state_name, a.city_name,
  ${RANKED_COLUMNS.map((column) => `a.${column}`).join(', ')} FROM accounts a WHERE a.updated_at IS NOT NULL`;

/** The location cell of a row (cellOf). */
export function cellOfRow(row: RankRow): string {
  return cellOf({
    region: row.region as string | null,
    countryName: row.country_name as string | null,
    stateName: row.state_name as string | null,
    cityName: row.city_name as string | null,
  });
}

/**
 * The row's entry in a version's countries hash (lower-cased country name → country code, as the location filters
 * look names up), or null when the row lacks either.
 */
export function countryEntryOf(row: RankRow): [name: string, code: string] | null {
  return row.country_name && row.country_code ? [String(row.country_name).toLowerCase(), String(row.country_code)] : null;
}

/** A row as the rank replica takes it: its cell and its scores in RANKED_COLUMNS order. */
export function placedAccountOf(row: RankRow): PlacedAccount {
  return { accountId: row.account_id, cell: cellOfRow(row), scores: RANKED_COLUMNS.map((column) => Number(row[column])) };
}

/**
 * Every refreshed account's row, in account id order, a keyset batch at a time. The next batch is asked for as soon
 * as a batch arrives, before `onBatch` handles it, so PostgreSQL reads one batch while this thread takes the last.
 */
export async function readRankRows(dataSource: DataSource, onBatch: (rows: RankRow[]) => Promise<void> | void): Promise<number> {
  const batchAfter = (after: number): Promise<RankRow[]> => {
    const rows = dataSource.query<RankRow[]>(`${RANK_ROWS_SQL} AND a.account_id > $1 ORDER BY a.account_id LIMIT ${BATCH}`, [after]);
    // Awaited below; a failure while the previous batch is handled must not count as unhandled meanwhile.
    rows.catch(() => undefined);
    return rows;
  };
  let next = batchAfter(-1);
  let read = 0;
  for (;;) {
    const rows = await next;
    if (!rows.length) return read;
    next = batchAfter(rows[rows.length - 1].account_id);
    await onBatch(rows);
    read += rows.length;
  }
}
