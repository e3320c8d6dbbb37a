import { DataSource } from 'typeorm';
import { ChangeKind, FeedEntry } from './change-entry';
import { FeedPosition, FeedRead } from './feed-cursor';

/** Entries read at most per read; a full batch (`truncated`) is followed by the next at once. */
export const FEED_BATCH = 1_000;

const HORIZON = 'txid_snapshot_xmin(txid_current_snapshot())';
const READ_SQL = `WITH h AS (SELECT ${HORIZON} AS horizon)
SELECT h.horizon::text AS horizon, f.id::text AS id, f.xid::text AS xid, f.kind, f.account_ids AS "accountIds", f.payload,
       (SELECT p.payload->>'through' FROM change_feed p WHERE p.kind = 'pruned' ORDER BY p.xid DESC, p.id DESC LIMIT 1) AS pruned
  FROM h LEFT JOIN LATERAL (SELECT * FROM change_feed WHERE (xid, id) > ($1::bigint, $2::bigint) ORDER BY xid, id LIMIT ${FEED_BATCH}) f ON true`;

type ReadRow = Omit<FeedEntry, 'id' | 'xid'> & { horizon: string; pruned: string | null; id: string | null; xid: string };

/**
 * The one read of the feed, shared by every reader (each process's ChangeFeedFollower, the worker's durable
 * consumers): the entries after a position in (xid, id) order, with the snapshot horizon and the newest pruning in the
 * same statement, so FeedCursor judges them against one snapshot. What to do with them is the reader's.
 */
export class FeedReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The horizon now: a reader starting from "now" takes it as its position (FeedCursor.at). */
  async horizon(): Promise<number> {
    const [row] = await this.dataSource.query<{ horizon: string }[]>(`SELECT ${HORIZON}::text AS horizon`);
    return Number(row.horizon);
  }

  async read(position: FeedPosition): Promise<FeedRead> {
    const rows = await this.dataSource.query<ReadRow[]>(READ_SQL, [position.xid, position.id]);
    const entries = rows
      .filter((row) => row.id !== null)
      .map((row) => ({ ...row, id: Number(row.id), xid: Number(row.xid), kind: row.kind as ChangeKind }));
    const { horizon, pruned } = rows[0];
    return { entries, horizon: Number(horizon), truncated: entries.length === FEED_BATCH, pruned: pruned === null ? null : Number(pruned) };
  }
}
