import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { TRACKED_ACCOUNT } from '../support/hostile';
import { startTestApp, TestContext } from '../support/test-app';

/**
 * LargeBodyGate (src/common/large-bodies): bodies over 64 KiB are read one slot at a time, the next ones wait unread
 * up to the queue's depth, one more is a 503 with Retry-After; requests without a large body never wait.
 */
describe('the large-body gate', () => {
  let ctx: TestContext;
  let port: number;
  let session: string;
  let apiKey: string;

  beforeAll(async () => {
    ctx = await startTestApp('largebody', { LARGE_BODY_CONCURRENCY: '1', LARGE_BODY_QUEUE: '1' });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    session = (await ctx.session(TRACKED_ACCOUNT)).sessionToken;
    apiKey = await ctx.apiKey(TRACKED_ACCOUNT + 1);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  /** A request whose declared body is `length` bytes, of which only the headers and `first` bytes are sent now. */
  function open(path: string, token: string, length: number, first: number) {
    const request: ClientRequest = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': length, Authorization: `Bearer ${token}` },
    });
    const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on('error', reject);
    });
    request.write(Buffer.alloc(first, 'a'));
    return { request, answer, rest: () => request.end(Buffer.alloc(length - first, 'a')) };
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('should hold a large body unread while the slot is taken, refuse one past the queue with 503, and never hold small requests', async () => {
    // Takes the only slot: the server reads it and waits for the rest.
    const holder = open('/v1/account.uploadImages', session, 1024 * 1024, 100 * 1024);
    await settle();
    // Waits in the queue (depth 1), sent whole.
    const waiter = open('/v1/stats.getStats', apiKey, 200 * 1024, 0);
    waiter.rest();
    await settle();
    // One more large body: 503, answered before its body is read.
    const refused = open('/v1/stats.getStats', apiKey, 200 * 1024, 1024);
    const { status, headers, body } = await refused.answer;
    refused.request.destroy();
    expect(status).toBe(503);
    expect(headers['retry-after']).toBe('1');
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(body).detail).toMatch(/too many large request bodies/);
    // A request without a large body goes straight through.
    await ctx.http().post('/v1/stats.getStats').set('Authorization', `Bearer ${apiKey}`).expect(200);
    // The waiter is answered only once the holder's body is through.
    let waiterDone = false;
    void waiter.answer.then(() => (waiterDone = true));
    await settle();
    expect(waiterDone).toBe(false);
    holder.rest();
    expect((await holder.answer).status).toBe(400); // not JSON
    expect((await waiter.answer).status).toBe(400);
  });
});
