import { AddressInfo } from 'node:net';
import { StreamSlots } from '../../src/auth/stream-limits/stream-slots';
import { openSse, SseConnection } from '../support/sse';
import { startTestApp, TestContext } from '../support/test-app';

/** Open event streams are capped per account, per address (anonymous ones) and per process (src/auth/stream-limits). */
describe('event-stream limits', () => {
  let ctx: TestContext;
  let port: number;
  const open: SseConnection[] = [];

  beforeAll(async () => {
    ctx = await startTestApp('streamcaps', { STREAMS_PER_ACCOUNT: '2', STREAMS_PER_ADDRESS: '3', STREAMS_MAX_OPEN: '6' });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
  });
  afterEach(async () => {
    open.splice(0).forEach((connection) => connection.close());
    // Slots are given back as the server sees each connection close.
    const slots = ctx.app.get(StreamSlots);
    for (let i = 0; i < 100 && slots.state().open > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(slots.state().open).toBe(0);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const stream = async (headers: Record<string, string> = {}, path = '/v1/stats.subscribe') => {
    const connection = await openSse(port, path, headers);
    open.push(connection);
    return connection;
  };
  const expectRefused = (connection: SseConnection, status: number) => {
    expect({ status: connection.status, type: connection.contentType, retryAfter: connection.headers['retry-after'] }).toEqual({
      status,
      type: expect.stringMatching(/^application\/problem\+json/),
      retryAfter: '30',
    });
  };

  it('should let an address hold STREAMS_PER_ADDRESS anonymous streams, refuse one more with 429, and take one once another closes', async () => {
    const first = await Promise.all([stream(), stream(), stream({}, '/v1/site.subscribe')]);
    expect(first.map((connection) => connection.status)).toEqual([200, 200, 200]);
    const refused = await stream();
    expectRefused(refused, 429);
    expect(JSON.parse(refused.body).detail).toMatch(/This address holds 3 open event streams/);
    first[0].close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await stream()).status).toBe(200);
  });

  it('should count an account’s streams over all its keys and sessions, and refuse one past STREAMS_PER_ACCOUNT with 429', async () => {
    const [keyA, keyB] = [await ctx.apiKey(21), await ctx.apiKey(21)];
    const { sessionToken } = await ctx.session(21);
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    expect((await stream(bearer(keyA))).status).toBe(200);
    expect((await stream(bearer(keyB))).status).toBe(200);
    const refused = await stream(bearer(sessionToken));
    expectRefused(refused, 429);
    expect(JSON.parse(refused.body).detail).toMatch(/This account holds 2 open event streams/);
    // Another account, and anonymous callers, are not held back by it.
    expect((await stream(bearer(await ctx.apiKey(22)))).status).toBe(200);
    expect((await stream()).status).toBe(200);
  });

  it('should refuse a stream past STREAMS_MAX_OPEN in the process with 503, whoever asks', async () => {
    const owners = await Promise.all([23, 24, 25].map((account) => ctx.apiKey(account)));
    for (const key of owners) {
      expect((await stream({ Authorization: `Bearer ${key}` })).status).toBe(200);
      expect((await stream({ Authorization: `Bearer ${key}` })).status).toBe(200);
    }
    const refused = await stream({ Authorization: `Bearer ${await ctx.apiKey(26)}` });
    expectRefused(refused, 503);
    expect(JSON.parse(refused.body).detail).toMatch(/as many event streams as it can/);
  });
});
