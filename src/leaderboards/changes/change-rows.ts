/**
 * One listed change, as the services pass it around and as the snapshots store it (five float64 per row). When the
 * account last moved is read with its card (`accounts.updated_at`).
 */
export interface ChangeRow {
  accountId: number;
  oldRank: number;
  newRank: number;
  oldScore: number;
  newScore: number;
}

const FIELDS = 5;
export const ROW_BYTES = FIELDS * 8;

export function packRows(rows: ChangeRow[]): Buffer {
  const values = new Float64Array(rows.length * FIELDS);
  rows.forEach((row, i) => values.set([row.accountId, row.oldRank, row.newRank, row.oldScore, row.newScore], i * FIELDS));
  return Buffer.from(values.buffer);
}

export function unpackRows(buffer: Buffer): ChangeRow[] {
  const count = Math.floor(buffer.length / ROW_BYTES);
  // Copied out: a Buffer from the network may not be aligned for a Float64Array view.
  const values = new Float64Array(count * FIELDS);
  Buffer.from(values.buffer).set(buffer.subarray(0, count * ROW_BYTES));
  return Array.from({ length: count }, (_, i) => {
    const [accountId, oldRank, newRank, oldScore, newScore] = values.subarray(i * FIELDS, (i + 1) * FIELDS);
    return { accountId, oldRank, newRank, oldScore, newScore };
  });
}

/** The two orders of the listing: by the size of the change (score or rank), then by account id. */
export const scoreDelta = (row: ChangeRow) => row.newScore - row.oldScore;
export const rankDelta = (row: ChangeRow) => row.oldRank - row.newRank;

export function byChange(delta: (row: ChangeRow) => number) {
  return (a: ChangeRow, b: ChangeRow) => Math.abs(delta(b)) - Math.abs(delta(a)) || a.accountId - b.accountId;
}
