import { MessageEvent } from '@nestjs/common';
import { interval, map, Observable } from 'rxjs';

/** A stream's heartbeat events: `{heartbeat: n}` with a counter from 1, every `intervalMs`. */
export function heartbeats(event: string, intervalMs: number): Observable<MessageEvent> {
  return interval(intervalMs).pipe(map((n): MessageEvent => ({ type: event, data: { heartbeat: n + 1 } })));
}
