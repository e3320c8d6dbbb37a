import { MessageEvent } from '@nestjs/common';
import { concatMap, Observable, of, Subject, Subscription } from 'rxjs';
import { compareEventIds, isEventId, MARKER, ReplayEntry, ResumeResult, ResyncReason } from './replay-log';
import { ReplayTail } from './replay-tail';

/** The reconnection delay every stream asks of its clients (`retry:`), in milliseconds. */
export const STREAM_RETRY_MS = 3000;

/** Name of the event a stream sends when it cannot resume from the client's `Last-Event-ID`. */
export const RESYNC_EVENT = 'resync-required';

type Resync = { resumed: false; reason: ResyncReason; position: string };

export interface ResumableStreamOptions {
  tail: ReplayTail;
  /** The client's `Last-Event-ID` (header or `lastEventId` query), if any. */
  lastEventId: string | undefined;
  /** The operations that rebuild what could not be replayed, named in `resync-required`. */
  refetch: string[];
  /** The wire events of consecutive entries (markers left out), each carrying its entry's id. */
  render: (entries: ReplayEntry[]) => Observable<MessageEvent>;
  /** Sent first by a stream that does not resume (a new one, or after `resync-required`), e.g. a snapshot. */
  start?: (position: string) => Observable<MessageEvent>;
  /** Heartbeats (without id), started once the opening events are queued. */
  heartbeats: Observable<MessageEvent>;
}

/**
 * Opens a resumable stream. A new stream without an opening snapshot (`start`) fixes where it begins here, before
 * the caller hands the Observable back: Nest sends the response's headers only once the handler's promise
 * resolves, and a client may act as soon as it sees them (open an account's stream, then view the account). Reading
 * the log's position first also creates a per-key log, which publishers append to only once it exists; a stream
 * that read its position after the headers lost what happened in between. A stream with a snapshot starts from the
 * snapshot's own position instead (its events after it are the changes the snapshot does not hold yet).
 */
export async function openResumableStream(options: ResumableStreamOptions): Promise<Observable<MessageEvent>> {
  const opening = options.lastEventId === undefined && !options.start ? await options.tail.log.position() : undefined;
  return resumableStream(options, opening);
}

/**
 * One connection of a resumable stream. It listens to the log's tail first, then reads the log (what the client
 * missed, or just the current position), then sends the live entries it held meanwhile and all later ones,
 * skipping any id at or before the last one sent: at the seam between replay and live nothing is lost or sent
 * twice. The first block is `retry:` with the resume point as `id:` and no data (browsers record the id without
 * dispatching an event), so a client that drops before its first event still resumes from where it opened.
 */
function resumableStream(options: ResumableStreamOptions, opening: string | undefined): Observable<MessageEvent> {
  return new Observable<MessageEvent>((observer) => {
    const queue = new Subject<Observable<MessageEvent>>();
    const output = queue.pipe(concatMap((events) => events)).subscribe(observer);
    let last: string | null = null;
    let live = false;
    const early: ReplayEntry[] = [];
    const send = (entries: ReplayEntry[]) => {
      const fresh = entries.filter((entry) => last === null || compareEventIds(entry.id, last) > 0);
      if (!fresh.length) return;
      last = fresh[fresh.length - 1].id;
      const events = fresh.filter((entry) => entry.event !== MARKER);
      if (events.length) queue.next(options.render(events));
    };
    const liveEntries = options.tail.listen().subscribe((entry) => (live ? send([entry]) : early.push(entry)));
    let beats: Subscription | undefined;
    // Set by the teardown. The opening reads are awaited: a client that leaves (or a shutdown) meanwhile has torn
    // the stream down before its heartbeats were subscribed, and subscribing them then would leave their timer
    // running, and the stream's closures held, for as long as the process lives.
    let closed = false;
    const begin = async () => {
      await options.tail.ready();
      const log = options.tail.log;
      const claimed = options.lastEventId;
      let resumed: ResumeResult | Resync | null = null;
      if (claimed !== undefined) {
        resumed = isEventId(claimed) ? await log.resume(claimed) : { resumed: false, reason: 'malformed', position: await log.position() };
      }
      // A new stream that fixed its opening position reads on from there, as a resumed one would.
      const caughtUp = opening !== undefined ? await log.resume(opening) : null;
      if (resumed?.resumed && claimed !== undefined) {
        last = claimed;
        queue.next(of({ id: claimed, retry: STREAM_RETRY_MS } as MessageEvent));
        send(resumed.entries);
      } else if (caughtUp?.resumed && opening !== undefined) {
        last = opening;
        queue.next(of({ id: opening, retry: STREAM_RETRY_MS } as MessageEvent));
        send(caughtUp.entries);
      } else {
        const resync = resumed as Resync | null;
        const position = resync ? resync.position : await log.position();
        // A new stream starts when it began listening: the entries the tail sent since then go out too (after the
        // opening id; a client resuming from one of them is still in the log). A resync starts from `position`.
        last = resync ? position : null;
        queue.next(of({ id: position, retry: STREAM_RETRY_MS } as MessageEvent));
        if (resync) queue.next(of({ type: RESYNC_EVENT, id: position, data: { reason: resync.reason, refetch: options.refetch } }));
        if (options.start) queue.next(options.start(position));
      }
      if (closed) return;
      send(early.splice(0));
      live = true;
      beats = options.heartbeats.subscribe((beat) => queue.next(of(beat)));
    };
    begin().catch((error: unknown) => observer.error(error));
    return () => {
      closed = true;
      liveEntries.unsubscribe();
      beats?.unsubscribe();
      output.unsubscribe();
    };
  });
}
