import { MessageEvent } from '@nestjs/common';
import { SseStream } from '@nestjs/core/router/sse-stream';
import { firstValueFrom, take, toArray } from 'rxjs';
import { compareEventIds, isEventId } from '../../src/common/replay/replay-log';
import { heartbeats } from '../../src/common/wire/heartbeats';

/** What Nest writes for `messages`, through its own SSE stream (which numbers events that have no id). */
async function written(messages: MessageEvent[]): Promise<string> {
  const stream = new SseStream();
  let out = '';
  stream.on('data', (chunk: string) => (out += chunk));
  for (const message of messages) await new Promise<void>((resolve) => stream.writeMessage(message, () => resolve()));
  return out;
}

describe('replay ids', () => {
  it('should accept only entry ids and order them by time, then sequence', () => {
    expect(['1-0', '1767225600000-12'].every(isEventId)).toBe(true);
    expect(['', 'abc', '1', '1-', '-1', '1-0-0', ' 1-0', '1-0\n', '1234567890123456-0', '1.5-0'].some(isEventId)).toBe(false);
    expect(compareEventIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareEventIds('10-2', '10-10')).toBeLessThan(0);
    expect(compareEventIds('10-1', '10-1')).toBe(0);
    expect(compareEventIds('11-0', '10-99')).toBeGreaterThan(0);
  });

  it('should write heartbeats without an id line, where Nest numbers other events', async () => {
    const beats = await firstValueFrom(heartbeats('heartbeat', 10, { now: true }).pipe(take(2), toArray()));
    const text = await written([{ type: 'other', data: { a: 1 } }, ...beats, { type: 'kept', id: '5-0', data: { b: 2 } }]);
    expect(text).toBe(
      'event: other\nid: 1\ndata: {"a":1}\n\n' +
        'event: heartbeat\ndata: {"heartbeat":1}\n\n' +
        'event: heartbeat\ndata: {"heartbeat":2}\n\n' +
        'event: kept\nid: 5-0\ndata: {"b":2}\n\n',
    );
  });
});
