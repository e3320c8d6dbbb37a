import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Call, sample, summarize } from '../../scripts/bench/load';

/**
 * The benchmarks' load generator against a local server: what it counts as an answer, an error and a timeout, that
 * it reads every answer to its end, and how many requests it keeps in flight.
 */
describe('bench load generator', () => {
  let server: Server;
  let port: number;
  let inFlight = 0;
  let mostInFlight = 0;
  const bodies: string[] = [];
  const held: (() => void)[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(`${req.headers.authorization ?? ''} ${req.headers['content-type'] ?? ''} ${body}`);
        const answer = (status: number, text: string, delayMs = 5) =>
          setTimeout(() => {
            inFlight--;
            res.writeHead(status, { 'content-type': 'application/json' }).end(text);
          }, delayMs);
        if (req.url === '/large') {
          // Held until the generator has 16 requests here (or a second has passed): it must keep that many in flight,
          // however slowly a loaded machine lets it open its connections.
          held.push(() => answer(200, JSON.stringify({ filler: 'x'.repeat(200_000) })));
          if (inFlight === 16) held.splice(0).forEach((release) => release());
          else setTimeout(() => held.splice(0).forEach((release) => release()), 1000);
        } else if (req.url === '/fail') answer(422, JSON.stringify({ title: 'Unprocessable Entity', detail: 'no such account' }));
        else if (req.url === '/slow') answer(200, '{}', 3000);
        else answer(200, '{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    mostInFlight = 0;
    bodies.length = 0;
  });

  it('should keep the concurrency in flight, send the credential and body, and count whole answers', async () => {
    const call: Call = { name: 'large', method: 'POST', path: '/large', body: (i) => ({ i }) };
    const measured = summarize([await sample(call, port, 'secret', 0, 400, 30, 5000)]);
    expect(measured).toMatchObject({ ok: 400, errors: 0, timeouts: 0 });
    expect(mostInFlight).toBe(16);
    expect(measured.p50).toBeGreaterThanOrEqual(5);
    expect(bodies).toContain('Bearer secret application/json {"i":399}');
  });

  it('should count an error status as an error and keep the start of its body', async () => {
    const s = await sample({ name: 'fail', method: 'GET', path: '/fail', concurrency: 2 }, port, '', 0, 4, 30, 5000);
    expect(s).toMatchObject({ ok: 0, errors: 4, timeouts: 0 });
    expect(s.firstError).toMatch(/^422 .*no such account/);
    expect(mostInFlight).toBe(2);
    expect(bodies[0]).toBe('  ');
  });

  it('should give up a request after the timeout and count it as a timeout at the timeout', async () => {
    const s = await sample({ name: 'slow', method: 'GET', path: '/slow', concurrency: 2 }, port, '', 0, 2, 30, 100);
    expect(s).toMatchObject({ ok: 0, errors: 0, timeouts: 2 });
    expect(s.latencies).toEqual([100, 100]);
  });
});
