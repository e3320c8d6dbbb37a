import { TimeSlices } from '../../common/scheduling/time-slices';

/**
 * One listed change, as the services pass it around and as the snapshots store it. When the account last moved is
 * read with its card (`accounts.updated_at`). An end whose score is 0 is unranked; its rank here is the place after
 * the board's last ranked account at that end (the rank engine's arithmetic), which only orders the listing by rank
 * change: the wire shows it as 0 (shownRank).
 */
export interface ChangeRow {
  accountId: number;
  oldRank: number;
  newRank: number;
  oldScore: number;
  newScore: number;
}

/**
 * A stored row: account id and both ranks as uint32 (account ids are the platform's 32-bit ids, ranks count
 * accounts), both scores as float64 — 28 bytes, so a million-row snapshot is 28 MB.
 */
export const ROW_BYTES = 3 * 4 + 2 * 8;

/** The rows packed, in slices (a snapshot of a 30-day window packs most of the population). */
export async function packRows(rows: ChangeRow[], slices: TimeSlices): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(rows.length * ROW_BYTES);
  await slices.forEach(rows.length, (i) => {
    const [row, at] = [rows[i], i * ROW_BYTES];
    buffer.writeUInt32LE(row.accountId, at);
    buffer.writeUInt32LE(row.oldRank, at + 4);
    buffer.writeUInt32LE(row.newRank, at + 8);
    buffer.writeDoubleLE(row.oldScore, at + 12);
    buffer.writeDoubleLE(row.newScore, at + 20);
  });
  return buffer;
}

export function unpackRows(buffer: Buffer): ChangeRow[] {
  return Array.from({ length: Math.floor(buffer.length / ROW_BYTES) }, (_, i) => {
    const at = i * ROW_BYTES;
    return {
      accountId: buffer.readUInt32LE(at),
      oldRank: buffer.readUInt32LE(at + 4),
      newRank: buffer.readUInt32LE(at + 8),
      oldScore: buffer.readDoubleLE(at + 12),
      newScore: buffer.readDoubleLE(at + 20),
    };
  });
}

/** Positions into a snapshot's rows, as uint32, so a list ordered another way costs 4 bytes a row, not 28. */
export const POSITION_BYTES = 4;

export async function packPositions(positions: number[], slices: TimeSlices): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(positions.length * POSITION_BYTES);
  await slices.forEach(positions.length, (i) => buffer.writeUInt32LE(positions[i], i * POSITION_BYTES));
  return buffer;
}

/** The two orders of the listing: by the size of the change (score or rank), then by account id. */
export const scoreDelta = (row: ChangeRow) => row.newScore - row.oldScore;
export const rankDelta = (row: ChangeRow) => row.oldRank - row.newRank;

/**
 * A rank as the wire shows it: 0 for a score of 0, unranked as everywhere else (README "What the answers mean"). The
 * delta still counts an unranked end as the place after the last ranked one: entering a board is a climb, leaving it
 * a fall.
 */
export const shownRank = (rank: number, score: number) => (score > 0 ? rank : 0);

/** Whether a row is within the top `top` at either end; an unranked end (a score of 0) is in no top. */
export const inTopAtEitherEnd = (row: ChangeRow, top: number) =>
  (row.newScore > 0 && row.newRank <= top) || (row.oldScore > 0 && row.oldRank <= top);

export function byChange(delta: (row: ChangeRow) => number) {
  return (a: ChangeRow, b: ChangeRow) => Math.abs(delta(b)) - Math.abs(delta(a)) || a.accountId - b.accountId;
}
