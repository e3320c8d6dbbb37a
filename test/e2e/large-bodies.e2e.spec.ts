import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { LargeBodyGate } from '../../src/common/large-bodies/large-body-gate';
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

/**
 * Issue 60: who may hold the large-body lane. A body over 64 KiB (or chunked) is read only with a live credential;
 * one being read must keep a minimum pace; an address may have only so many waiting.
 */
describe('the large-body gate under strangers and slow senders', () => {
  let ctx: TestContext;
  let port: number;
  let session: string;
  let apiKey: string;
  let upload: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    ctx = await startTestApp('largeslow', {
      IMAGE_STORE_DIR: await mkdtemp(join(tmpdir(), 'bst-largeslow-')),
      LARGE_BODY_CONCURRENCY: '1',
      LARGE_BODY_QUEUE: '64',
      LARGE_BODY_QUEUE_PER_ADDRESS: '2',
      LARGE_BODY_MIN_BYTES_PER_SECOND: '16384',
    });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    session = (await ctx.session(TRACKED_ACCOUNT)).sessionToken;
    apiKey = await ctx.apiKey(TRACKED_ACCOUNT + 1);
    // Random pixels do not compress: a ~480 kB PNG, ~640 kB as the base64 of a JSON body.
    const png = await sharp(randomBytes(400 * 400 * 3), { raw: { width: 400, height: 400, channels: 3 } })
      .png()
      .toBuffer();
    upload = JSON.stringify({ images: [{ type: 'avatar', data: png.toString('base64') }] });
  });
  afterEach(() => sockets.splice(0).forEach((socket) => socket.destroy()));
  afterAll(async () => {
    await ctx?.close();
  });

  /**
   * A chunked POST whose body comes a byte every `everyMs` (until the test ends); resolves with the status line's
   * code once the server answers, or 0 when it closes the connection without an answer.
   */
  function slowBody(path: string, authorization?: string, everyMs = 2000): Promise<number> {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Transfer-Encoding: chunked'];
    if (authorization) head.push(`Authorization: ${authorization}`);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    const drip = setInterval(() => socket.writable && socket.write('1\r\n \r\n'), everyMs);
    return new Promise((resolve) => {
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        if (status) resolve(Number(status[1]));
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(0);
      });
    });
  }

  const timedUpload = async () => {
    const started = performance.now();
    const res = await ctx
      .http()
      .post('/v1/account.uploadImages')
      .set('Authorization', `Bearer ${session}`)
      .set('Content-Type', 'application/json')
      .send(upload);
    return { status: res.status, ms: performance.now() - started, body: res.body as { images?: unknown[] } };
  };

  it('should answer slow credential-less bodies 401 unread, so that ten delay a valid 640 kB upload by under a second', async () => {
    expect(upload.length).toBeGreaterThan(600_000);
    // The first upload warms up the image pipeline (libvips, the body thread): the baseline is the second.
    expect((await timedUpload()).status).toBe(200);
    const baseline = await timedUpload();
    expect(baseline.status).toBe(200);
    const strangers = Array.from({ length: 10 }, (_, i) =>
      slowBody(i % 2 ? '/v1/account.uploadImages' : '/v1/stats.getStats', i % 3 === 0 ? 'Bearer xyz' : undefined),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = await timedUpload();
    expect(during.status).toBe(200);
    expect(during.body.images).toHaveLength(1);
    console.log(`640 kB upload: ${baseline.ms.toFixed(0)} ms alone, ${during.ms.toFixed(0)} ms beside ten slow strangers`);
    expect(during.ms).toBeLessThan(baseline.ms + 1000);
    expect(await Promise.all(strangers)).toEqual(Array(10).fill(401));
    expect(ctx.app.get(LargeBodyGate).state()).toEqual({ free: 1, waiting: 0 });
  });

  it('should keep serving everyone else, large bodies included, under 80 slow credential-less bodies', async () => {
    const strangers = Array.from({ length: 80 }, () => slowBody('/v1/account.uploadImages'));
    const [large, small] = await Promise.all([
      timedUpload(),
      ctx.http().post('/v1/stats.getStats').set('Authorization', `Bearer ${apiKey}`),
    ]);
    expect([large.status, small.status]).toEqual([200, 200]);
    expect(new Set(await Promise.all(strangers))).toEqual(new Set([401]));
  });

  it('should cut off a credentialed body that falls below the minimum pace with a 408, and free its slot', async () => {
    const slow = slowBody('/v1/stats.getStats', `Bearer ${apiKey}`, 500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ctx.app.get(LargeBodyGate).state().free).toBe(0);
    const next = await timedUpload();
    expect(next.status).toBe(200);
    // Cut at the first check past the second of grace: the upload waited for that, not for Node's request timeout.
    expect(next.ms).toBeLessThan(3000);
    expect(await slow).toBe(408);
  });

  it('should let an address have only LARGE_BODY_QUEUE_PER_ADDRESS bodies waiting; one more is a 429', async () => {
    const holder = slowBody('/v1/stats.getStats', `Bearer ${apiKey}`, 20);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const waiting = [slowBody('/v1/stats.getStats', `Bearer ${apiKey}`, 20), slowBody('/v1/stats.getStats', `Bearer ${apiKey}`, 20)];
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ctx.app.get(LargeBodyGate).state()).toEqual({ free: 0, waiting: 2 });
    expect(await slowBody('/v1/stats.getStats', `Bearer ${apiKey}`, 20)).toBe(429);
    sockets.splice(0).forEach((socket) => socket.destroy());
    void holder;
    void waiting;
  });
});
