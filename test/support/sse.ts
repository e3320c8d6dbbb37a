import { request } from 'node:http';

export interface SseEvent {
  event: string;
  data: unknown;
  /** The `id:` line, when the message has one. */
  id?: string;
}

export interface SseConnection {
  status: number;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  events: SseEvent[];
  /** Every message block as received (`event:`, `id:`, `retry:`, `data:` lines), data-less ones included. */
  blocks: string[];
  body: string;
  /** Resolves with the first event matching `predicate` (already received or still to come). */
  waitFor(predicate: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once the server has ended the answer or closed the connection (not when `close` is called here). */
  ended: Promise<void>;
  close(): void;
}

/** Opens a server-sent-event stream and parses its events as they arrive. */
export function openSse(port: number, path: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path, headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseEvent[] = [];
      const blocks: string[] = [];
      const waiters: { predicate: (event: SseEvent) => boolean; resolve: (event: SseEvent) => void }[] = [];
      let buffer = '';
      let closedHere = false;
      const ended = new Promise<void>((done) => res.once('close', () => !closedHere && done()));
      const connection: SseConnection = {
        status: res.statusCode ?? 0,
        contentType: String(res.headers['content-type'] ?? ''),
        headers: res.headers,
        events,
        blocks,
        body: '',
        waitFor(predicate, timeoutMs = 10_000) {
          const found = events.find(predicate);
          if (found) return Promise.resolve(found);
          return new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`no matching event; got ${events.map((e) => e.event).join(', ')}`)), timeoutMs);
            waiters.push({ predicate, resolve: (event) => (clearTimeout(timer), done(event)) });
          });
        },
        ended,
        close: () => {
          closedHere = true;
          req.destroy();
        },
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        connection.body += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.trim()) blocks.push(block);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          const id = /^id: (.*)$/m.exec(block)?.[1];
          if (!name) continue;
          const event: SseEvent = { event: name, data: data ? JSON.parse(data) : null, ...(id !== undefined ? { id } : {}) };
          events.push(event);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(event)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      });
      res.on('error', () => undefined);
      if (!String(res.headers['content-type']).startsWith('text/event-stream')) res.on('end', () => resolve(connection));
      else resolve(connection);
    });
    req.on('error', reject);
    req.end();
  });
}
