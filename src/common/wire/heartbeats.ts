import { MessageEvent } from '@nestjs/common';
import { interval, map, Observable, timer } from 'rxjs';

/**
 * A stream's heartbeat events: `{heartbeat: n}` with a counter from 1, every `intervalMs`. With `now` the first
 * one is sent at once: a stream whose first event may be far off (an account's next update, the next activity)
 * then shows the client at once that it is open, instead of after a whole interval of silence.
 */
export function heartbeats(event: string, intervalMs: number, options: { now?: boolean } = {}): Observable<MessageEvent> {
  const ticks = options.now ? timer(0, intervalMs) : interval(intervalMs);
  return ticks.pipe(map((n): MessageEvent => ({ type: event, data: { heartbeat: n + 1 } })));
}
