import Redis from 'ioredis';
import { AddressInfo } from 'node:net';
import { openSse, SseEvent } from '../support/sse';
import { startPipeline, PipelineContext } from '../support/pipeline';

describe('account.subscribe', () => {
  let ctx: PipelineContext;
  let port: number;
  let key: string;

  beforeAll(async () => {
    // One trusted proxy: the tests tell viewers apart by the address it forwards.
    ctx = await startPipeline('stream', { env: { STREAM_HEARTBEAT_MS: '200', TRUST_PROXY_HOPS: '1' } });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    key = await ctx.apiKey(1);
    await ctx.startWorker();
  });
  afterAll(() => ctx.close());

  it('should stream heartbeats, status changes and every step of an update', async () => {
    const stream = await openSse(port, '/v1/account.subscribe?accountId=1', { Authorization: `Bearer ${key}` });
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      await stream.waitFor((e) => e.event === 'heartbeat');
      await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 1 } })
        .expect(204);
      await stream.waitFor((e) => e.event === 'account-updated' && (e.data as { status: string }).status === 'completed');
      const statuses = stream.events.filter((e) => e.event === 'account-updated').map((e) => (e.data as { status: string }).status);
      expect(statuses).toEqual(['pending', 'in_progress', 'completed']);
      const steps = stream.events
        .filter((e: SseEvent) => e.event === 'account-update-progress')
        .map((e) => (e.data as { progress: { currentStep: string; accountId: number } }).progress);
      expect(steps.every((p) => p.accountId === 1)).toBe(true);
      expect(new Set(steps.map((p) => p.currentStep))).toEqual(
        new Set(['profile', 'bans', 'badges', 'games', 'friends', 'groups', 'inventory', 'save']),
      );
      const heartbeat = stream.events.find((e) => e.event === 'heartbeat');
      expect(heartbeat?.data).toEqual({ heartbeat: expect.any(Number) });
    } finally {
      stream.close();
    }
  });

  it('should count profile views, stream view ticks and rank trending accounts', async () => {
    const stream = await openSse(port, '/v1/account.subscribe?accountId=1', { Authorization: `Bearer ${key}` });
    try {
      // Viewing starts as soon as the headers are in: the stream fixed its starting position (and created the
      // account's log, which views are appended to) before it sent them. It read it after them once, and a view
      // recorded in between was lost about one run in four.
      // A viewer is the key's account from an address: alice's second view counts nothing, not even a tick.
      const view = (address: string) =>
        ctx
          .http()
          .post('/v1/account.getInfo')
          .set('Authorization', `Bearer ${key}`)
          .set('X-Forwarded-For', address)
          .send({ id: { accountId: 1 } })
          .expect(200);
      await view('203.0.113.1');
      await view('203.0.113.1');
      await view('203.0.113.2');
      await stream.waitFor(() => stream.events.filter((e) => e.event === 'account-view-tick').length === 2);
      expect(stream.events.find((e) => e.event === 'account-view-tick')?.data).toEqual({ accountId: 1, totalDelta: 1 });
      const stats = await ctx
        .http()
        .post('/v1/account.getViewStats')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 1 } })
        .expect(200);
      expect(stats.body).toMatchObject({ total24h: 2, total7d: 2, total30d: 2, unique24h: 2, unique7d: 2, unique30d: 2 });
      expect(stream.events.filter((e) => e.event === 'account-view-tick').length).toBe(2);
      const trending = await ctx.http().post('/v1/account.getTrending').send({ window: '24h', limit: 5 }).expect(200);
      expect(trending.body.accounts[0]).toMatchObject({ accountId: 1, uniqueViews: 2, totalViews: 2 });
      expect(trending.body.accounts[0].account.steamId).toBe('76561197960265729');
      await ctx.http().post('/v1/account.getTrending').send({ window: '1h' }).expect(422);
    } finally {
      stream.close();
    }
  });

  it('should announce a view only when someone follows the profile, and count it either way', async () => {
    // Every message of the account-events channel, as any subscriber (a worker's webhook source) receives them.
    const subscriber = new Redis(ctx.config.redisUrl);
    const messages: { type: string; accountId: number }[] = [];
    await subscriber.subscribe(`${ctx.config.redisPrefix}:events:account`);
    subscriber.on('message', (_channel, text: string) => messages.push(JSON.parse(text) as { type: string; accountId: number }));
    // Both profiles stored: the followed one (1) and one nobody follows (2).
    for (const accountId of [1, 2]) {
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } });
      await ctx.waitForCompletion(accountId, key);
    }
    const stream = await openSse(port, '/v1/account.subscribe?accountId=1', { Authorization: `Bearer ${key}` });
    try {
      let address = 10;
      // Each view from an address of its own: a new viewer.
      const view = (accountId: number) =>
        ctx
          .http()
          .post('/v1/account.getInfo')
          .set('Authorization', `Bearer ${key}`)
          .set('X-Forwarded-For', `198.51.100.${address++}`)
          .send({ id: { accountId } })
          .expect(200);
      const viewsOf = async (accountId: number) =>
        (await ctx.http().post('/v1/account.getViewStats').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(200))
          .body.total24h as number;
      // Reading the counts flushes the views still waiting (the set-up's getInfo calls were views too).
      const [followedBefore, unfollowedBefore] = [await viewsOf(1), await viewsOf(2)];
      await new Promise((resolve) => setTimeout(resolve, 200));
      messages.length = 0;
      const ticks = () => stream.events.filter((e) => e.event === 'account-view-tick').length;
      const ticksBefore = ticks();
      await Promise.all([view(2), view(1), view(2)]);
      await stream.waitFor(() => ticks() > ticksBefore);
      // The followed profile's view was announced; by then the unfollowed ones, counted in the same batch, were not.
      expect(messages.filter((m) => m.type === 'view').map((m) => m.accountId)).toEqual([1]);
      expect(await viewsOf(1)).toBe(followedBefore + 1);
      expect(await viewsOf(2)).toBe(unfollowedBefore + 2);
    } finally {
      stream.close();
      await subscriber.quit();
    }
  });

  it('should tell viewers apart by their account and address, never by what the client labels itself', async () => {
    const stats = async () =>
      (
        await ctx
          .http()
          .post('/v1/account.getViewStats')
          .set('Authorization', `Bearer ${key}`)
          .send({ id: { accountId: 1 } })
          .expect(200)
      ).body as { total24h: number; unique24h: number };
    const otherAccountKey = await ctx.apiKey(7);
    const view = (forwardedFor: string, userAgent: string, visitorId: string, credential = key) =>
      ctx
        .http()
        .post('/v1/account.getInfo')
        .set('Authorization', `Bearer ${credential}`)
        .set('X-Forwarded-For', forwardedFor)
        .set('User-Agent', userAgent)
        .set('X-Visitor-Id', visitorId)
        .send({ id: { accountId: 1 } })
        .expect(200);
    const before = await stats();
    await view('203.0.113.7', 'one', 'a');
    await view('203.0.113.7', 'two', 'b'); // another label, the same viewer
    await view('192.0.2.9, 203.0.113.7', 'one', 'c'); // a forged entry before the one the trusted proxy wrote
    await view('198.51.100.2', 'one', 'a'); // another address
    await view('203.0.113.7', 'one', 'a', otherAccountKey); // another account
    const after = await stats();
    expect(after.unique24h - before.unique24h).toBe(3);
    expect(after.total24h - before.total24h).toBe(3);
  });

  it('should let a client subscribe to an account before its first refresh, and wait for it', async () => {
    const before = await ctx
      .http()
      .post('/v1/account.getInfo')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId: 299 } });
    expect(before.status).toBe(404);
    const stream = await openSse(port, '/v1/account.subscribe?accountId=299', { Authorization: `Bearer ${key}` });
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor((e) => e.event === 'heartbeat');
      await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 299 } })
        .expect(204);
      await stream.waitFor((e) => e.event === 'account-updated' && (e.data as { status: string }).status === 'completed');
    } finally {
      stream.close();
    }
  });

  it('should answer problems before the stream starts', async () => {
    const unauthenticated = await openSse(port, '/v1/account.subscribe?accountId=1');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.contentType).toMatch(/problem\+json/);
    // Not on the platform (the simulator has accounts 1..300).
    const unknown = await openSse(port, '/v1/account.subscribe?accountId=5000', { Authorization: `Bearer ${key}` });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).detail).toContain('does not exist on the platform');
    const invalid = await openSse(port, '/v1/account.subscribe?accountId=abc', { Authorization: `Bearer ${key}` });
    expect(invalid.status).toBe(422);
    expect(JSON.parse(invalid.body).errors[0].location).toBe('query.accountId');
  });
});
