import { MessageEvent } from '@nestjs/common';
import { interval, map, Observable, timer } from 'rxjs';

/**
 * An event written without an `id:` line. Nest numbers every event that has no id (its `SseStream` assigns
 * `message.id` before writing), and an `EventSource` takes every `id:` it receives as the point to resume from;
 * a heartbeat is not in any replay log, so its id would make the next reconnection unresumable. This event
 * ignores that assignment. Its data is text (JSON already), because Nest copies an event with object data into a
 * plain object first, which would take the number; `test/e2e/stream-resume` checks the wire.
 */
class UnnumberedEvent implements MessageEvent {
  constructor(
    readonly type: string,
    readonly data: string,
  ) {}

  get id(): string | undefined {
    return undefined;
  }

  set id(_ignored: string | undefined) {
    // Nest's numbering is refused: see above.
  }
}

/**
 * A stream's heartbeat events: `{heartbeat: n}` with a counter from 1, every `intervalMs`, without `id:`. With
 * `now` the first one is sent at once: a stream whose first event may be far off (an account's next update, the
 * next activity) then shows the client at once that it is open, instead of after a whole interval of silence.
 */
export function heartbeats(event: string, intervalMs: number, options: { now?: boolean } = {}): Observable<MessageEvent> {
  const ticks = options.now ? timer(0, intervalMs) : interval(intervalMs);
  return ticks.pipe(map((n): MessageEvent => new UnnumberedEvent(event, JSON.stringify({ heartbeat: n + 1 }))));
}
