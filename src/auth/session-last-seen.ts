import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WriteBehind } from '../common/batching/write-behind';
import { JsonLogger } from '../common/logging/json-logger';

/** A session's `lastSeen` is moved when it is this old: the session lists show it to about a minute. */
export const LAST_SEEN_RESOLUTION_MS = 50_000;
/** How long the moves wait to be written together. */
export const LAST_SEEN_BATCH_MS = 10_000;
const LAST_SEEN_BATCH_MAX = 1_000;

interface Seen {
  sessionId: string;
  at: Date;
}

/**
 * `lastSeen` of the sessions, written behind. It used to be an UPDATE awaited in the request path, once a minute per
 * session. Now a request whose session was last seen over LAST_SEEN_RESOLUTION_MS ago only notes it in memory
 * (once per session and resolution in this process), and the notes are written by one statement
 * LAST_SEEN_BATCH_MS after the first of them waits (WriteBehind). So the stored value is at most ~a minute behind;
 * the session lists (account.getSettings, account.getSession) flush this process's notes before they read. A process
 * that stops flushes; one that dies loses at most a batch of notes (the next request notes again).
 */
@Injectable()
export class SessionLastSeen implements BeforeApplicationShutdown {
  private readonly logger = new JsonLogger('SessionLastSeen');
  /** When this process last noted each session; an entry older than the resolution is dropped at the next write. */
  private readonly noted = new Map<string, number>();
  private readonly writes = new WriteBehind<Seen>((seen) => this.write(seen), LAST_SEEN_BATCH_MS, LAST_SEEN_BATCH_MAX);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Notes that the session was seen at `at` (no I/O). */
  note(sessionId: string, at: Date): void {
    const last = this.noted.get(sessionId);
    if (last !== undefined && at.getTime() - last < LAST_SEEN_RESOLUTION_MS) return;
    this.noted.set(sessionId, at.getTime());
    // A failed write is logged once per batch by write(); the notes of a lost batch come again with the next requests.
    this.writes.add({ sessionId, at }).catch(() => undefined);
  }

  /** Writes what this process noted so far; the session lists call it before they read. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private async write(seen: Seen[]): Promise<void> {
    const now = Date.now();
    for (const [sessionId, at] of this.noted) if (now - at >= LAST_SEEN_RESOLUTION_MS) this.noted.delete(sessionId);
    // One row per session (its latest note), in a fixed order: two processes' batches then lock shared rows alike.
    const latest = new Map<string, Date>();
    for (const { sessionId, at } of seen) if (!(latest.get(sessionId)! >= at)) latest.set(sessionId, at);
    const ids = [...latest.keys()].sort();
    try {
      await this.dataSource.query(
        `UPDATE user_sessions AS s SET last_seen = v.at
           FROM (SELECT * FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) ORDER BY id) AS v
          WHERE s.session_id = v.id AND s.last_seen < v.at`,
        [ids, ids.map((id) => latest.get(id)!.toISOString())],
      );
    } catch (error) {
      // The notes are dropped: the sessions' next requests note them again.
      for (const id of ids) this.noted.delete(id);
      this.logger.warn({ msg: 'could not write the sessions’ last-seen times', sessions: ids.length, error: String(error) });
      throw error;
    }
  }
}
