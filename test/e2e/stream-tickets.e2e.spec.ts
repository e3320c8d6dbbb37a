import Redis from 'ioredis';
import { AddressInfo } from 'node:net';
import { hashSecret } from '../../src/auth/secrets';
import { SessionService } from '../../src/auth/session.service';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { openSse, SseConnection } from '../support/sse';
import { REDIS_URL, startTestApp, TestContext } from '../support/test-app';

/** Stream tickets (auth.createStreamTicket): how a browser EventSource, which cannot send Authorization, opens a stream. */
describe('stream tickets', () => {
  let ctx: TestContext;
  let port: number;
  let key: string;
  let redis: Redis;
  const open: SseConnection[] = [];

  const sse = async (path: string, headers: Record<string, string> = {}) => {
    const connection = await openSse(port, path, headers);
    open.push(connection);
    return connection;
  };
  const mint = async (credential: string, stream: string): Promise<string> => {
    const res = await ctx
      .http()
      .post('/v1/auth.createStreamTicket')
      .set('Authorization', `Bearer ${credential}`)
      .send({ stream })
      .expect(200);
    return res.body.ticket as string;
  };
  const ticketKey = (ticket: string) => `${ctx.config.redisPrefix}:stream-ticket:${hashSecret(ticket)}`;

  beforeAll(async () => {
    // The default heartbeat interval (15 s): a first event within a second or two shows it is sent at once. Distinct
    // limits per kind of subject show in RateLimit-Limit whom a stream was counted against.
    ctx = await startTestApp('tickets', {
      STREAM_HEARTBEAT_MS: '15000',
      API_KEY_RATE_LIMIT_PER_MINUTE: '999001',
      SESSION_RATE_LIMIT_PER_MINUTE: '999002',
      ANONYMOUS_RATE_LIMIT_PER_MINUTE: '999003',
    });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    key = await ctx.apiKey(1);
    redis = new Redis(REDIS_URL);
  });
  afterEach(() => open.splice(0).forEach((connection) => connection.close()));
  afterAll(async () => {
    await redis.quit();
    await ctx.close();
  });

  it('should mint a 60-second ticket that opens its stream once, as the key, with a first event at once', async () => {
    const res = await ctx
      .http()
      .post('/v1/auth.createStreamTicket')
      .set('Authorization', `Bearer ${key}`)
      .send({ stream: 'account.subscribe' })
      .expect(200);
    expect(res.body).toEqual({
      $schema: 'http://api.test/schemas/AuthCreateStreamTicketResponseBody.json',
      ticket: expect.stringMatching(/^stk_[A-Za-z0-9_-]{43}$/),
      stream: 'account.subscribe',
      expiresAt: expect.any(String),
    });
    const ticket = res.body.ticket as string;
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(50_000);
    expect(await redis.ttl(ticketKey(ticket))).toBeGreaterThan(50);
    expect(await redis.get(ticketKey(ticket))).not.toContain(ticket);

    const started = Date.now();
    const stream = await sse(`/v1/account.subscribe?accountId=1&ticket=${ticket}`);
    expect(stream.status).toBe(200);
    expect(stream.headers['ratelimit-limit']).toBe('999001');
    expect((await stream.waitFor((e) => e.event === 'heartbeat', 5_000)).data).toEqual({ heartbeat: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await redis.exists(ticketKey(ticket))).toBe(0);

    const again = await sse(`/v1/account.subscribe?accountId=1&ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect(again.contentType).toMatch(/problem\+json/);
    expect(JSON.parse(again.body).detail).toContain('already used');
  });

  it('should open a stream as the session that minted the ticket, refuse it once the session is revoked, and end its stream', async () => {
    const { sessionToken } = await ctx.session(1);
    const stream = await sse(`/v1/account.subscribe?accountId=1&ticket=${await mint(sessionToken, 'account.subscribe')}`);
    expect(stream.status).toBe(200);
    expect(stream.headers['ratelimit-limit']).toBe('999002');

    const ticket = await mint(sessionToken, 'account.subscribe');
    const [session] = await ctx.app.get(SessionService).listActive(1);
    await ctx.app.get(SessionService).revoke(session.sessionId);
    expect((await sse(`/v1/account.subscribe?accountId=1&ticket=${ticket}`)).status).toBe(401);
    // The stream its first ticket opened ended with the session (before the revocation returned).
    await stream.ended;
  });

  it('should refuse a ticket of a revoked key, for another stream, beside a header, or malformed; and access_token', async () => {
    const other = await ctx.apiKey(2);
    const revoked = await mint(other, 'account.subscribe');
    const [otherKey] = await ctx.app.get(ApiKeyService).listForAccount(2);
    await ctx.app.get(ApiKeyService).revoke(otherKey.keyId);
    expect((await sse(`/v1/account.subscribe?accountId=1&ticket=${revoked}`)).status).toBe(401);

    const forStats = await mint(key, 'stats.subscribe');
    expect((await sse(`/v1/account.subscribe?accountId=1&ticket=${forStats}`)).status).toBe(401);
    expect(await redis.exists(ticketKey(forStats))).toBe(0); // spent by the wrong use

    const both = await sse(`/v1/account.subscribe?accountId=1&ticket=${await mint(key, 'account.subscribe')}`, {
      Authorization: `Bearer ${key}`,
    });
    expect(both.status).toBe(401);
    expect(JSON.parse(both.body).detail).toContain('not both');

    expect((await sse('/v1/account.subscribe?accountId=1&ticket=stk_nope')).status).toBe(401);
    expect((await sse(`/v1/account.subscribe?accountId=1&access_token=${key}`)).status).toBe(401);
  });

  it('should redeem a ticket once when two streams race for it', async () => {
    const ticket = await mint(key, 'account.subscribe');
    const statuses = (await Promise.all([1, 2].map(() => sse(`/v1/account.subscribe?accountId=1&ticket=${ticket}`)))).map((s) => s.status);
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it('should open a public stream as the key with its ticket, and as anonymous with a spent one', async () => {
    const ticket = await mint(key, 'stats.subscribe');
    const stream = await sse(`/v1/stats.subscribe?ticket=${ticket}`);
    expect(stream.status).toBe(200);
    expect(stream.headers['ratelimit-limit']).toBe('999001');
    await stream.waitFor((e) => e.event === 'stats-snapshot');
    const spent = await sse(`/v1/stats.subscribe?ticket=${ticket}`);
    expect(spent.status).toBe(200);
    expect(spent.headers['ratelimit-limit']).toBe('999003');
    const feed = await sse(`/v1/activity.streamGlobalFeed?ticket=${await mint(key, 'activity.streamGlobalFeed')}`);
    expect((await feed.waitFor((e) => e.event === 'activity-heartbeat', 5_000)).data).toEqual({ heartbeat: 1 });
  });

  it('should mint only for a credential and a routed stream', async () => {
    await ctx.http().post('/v1/auth.createStreamTicket').send({ stream: 'account.subscribe' }).expect(401);
    const res = await ctx
      .http()
      .post('/v1/auth.createStreamTicket')
      .set('Authorization', `Bearer ${key}`)
      .send({ stream: 'badge.unknown.subscribe' })
      .expect(422);
    expect(res.body.errors[0].location).toBe('body.stream');
  });
});
