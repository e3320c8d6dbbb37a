import { AddressInfo } from 'node:net';
import { StatsEvents } from '../../src/stats/events/stats-events';
import { openSse, SseConnection, SseEvent } from '../support/sse';
import { accountGainingXp, PipelineContext, startPipeline } from '../support/pipeline';

/** How long a client stays away before it reconnects. */
const GAP_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isHeartbeat = (e: SseEvent) => e.event.endsWith('heartbeat');
const replayable = (stream: SseConnection) => stream.events.filter((e) => !isHeartbeat(e));

/** Orders two event ids (`<ms>-<seq>`) as the service does. */
function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/** The `id:` of the data-less opening block (`retry:` + position). */
function opening(stream: SseConnection): { id?: string; retry?: string } {
  const block = stream.blocks.find((b) => /^retry: /m.test(b));
  return { id: /^id: (.*)$/m.exec(block ?? '')?.[1], retry: /^retry: (.*)$/m.exec(block ?? '')?.[1] };
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('resumable streams (Last-Event-ID)', () => {
  let ctx: PipelineContext;
  let port: number;
  let key: string;
  let activityAccount: number;
  const DAYS_90 = 90 * 86_400_000;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    // One trusted proxy: each view below comes from an address of its own, so each is a new viewer (and a tick).
    ctx = await startPipeline('resume', { env: { STREAM_HEARTBEAT_MS: '200', TRUST_PROXY_HOPS: '1' } });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    key = await ctx.apiKey(1);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'staff')`);
    await ctx.startWorker();
    activityAccount = accountGainingXp(ctx, DAYS_90);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ id: { accountId: activityAccount } })
      .expect(204);
    await ctx.waitForCompletion(activityAccount, key);
  });
  afterAll(() => ctx.close());

  const update = async (accountId: number) => {
    await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId }, force: true }).expect(204);
    await ctx.waitForCompletion(accountId, key);
  };
  let viewer = 0;
  const view = (accountId: number) => {
    viewer++;
    const address = `10.${(viewer >> 16) & 255}.${(viewer >> 8) & 255}.${viewer & 255}`;
    return ctx.http().post('/v1/account.getInfo').set(auth()).set('X-Forwarded-For', address).send({ id: { accountId } }).expect(200);
  };

  /**
   * A control stream stays connected while a client receives up to `lastId`, drops for 5 s (while `duringGap`
   * makes events) and reconnects with `Last-Event-ID`. The reconnected stream must send exactly the control's
   * events after `lastId`: each once, in order, with the same ids and data.
   */
  async function dropAndResume(
    path: string,
    headers: Record<string, string>,
    beforeDrop: (client: SseConnection) => Promise<string>,
    duringGap: (control: SseConnection) => Promise<void>,
    resumeWith: (lastId: string) => { path: string; headers: Record<string, string> } = (lastId) => ({
      path,
      headers: { ...headers, 'Last-Event-ID': lastId },
    }),
  ): Promise<{ missed: SseEvent[]; resumed: SseConnection }> {
    const control = await openSse(port, path, headers);
    const client = await openSse(port, path, headers);
    try {
      await until(() => opening(control).id !== undefined, 'the control stream to open');
      const lastId = await beforeDrop(client);
      client.close();
      const droppedAt = Date.now();
      await duringGap(control);
      await sleep(Math.max(0, GAP_MS - (Date.now() - droppedAt)));
      const expected = replayable(control).filter((e) => compareIds(e.id!, lastId) > 0);
      expect(expected.length).toBeGreaterThan(0);
      const again = resumeWith(lastId);
      const resumed = await openSse(port, again.path, again.headers);
      const finalId = expected[expected.length - 1].id!;
      await until(() => replayable(resumed).some((e) => e.id === finalId), `event ${finalId} on the resumed stream`);
      await sleep(300);
      expect(resumed.status).toBe(200);
      expect(opening(resumed)).toEqual({ id: lastId, retry: '3000' });
      const got = replayable(resumed);
      expect(got.map((e) => e.event)).not.toContain('resync-required');
      expect(got).toEqual(replayable(control).filter((e) => compareIds(e.id!, lastId) > 0));
      expect(new Set(got.map((e) => e.id)).size).toBe(got.length);
      return { missed: got, resumed };
    } finally {
      control.close();
      client.close();
    }
  }

  it('stats.subscribe: the deltas of a 5 s gap arrive once, in order, and no second snapshot', async () => {
    const { missed, resumed } = await dropAndResume(
      '/v1/stats.subscribe',
      {},
      async (client) => (await client.waitFor((e) => e.event === 'stats-snapshot')).id!,
      async (control) => {
        await update(3);
        await update(4);
        await until(() => replayable(control).length >= 3, 'the deltas on the control stream');
      },
    );
    try {
      expect(missed.every((e) => e.event === 'stats-updated')).toBe(true);
      // Heartbeats carry no id: a reconnection must resume from the last real event.
      const beat = await resumed.waitFor((e) => e.event === 'stats-heartbeat');
      expect(beat.id).toBeUndefined();
      expect(resumed.blocks.filter((b) => b.includes('event: stats-heartbeat')).every((b) => !/^id:/m.test(b))).toBe(true);
    } finally {
      resumed.close();
    }
  });

  it('account.subscribe: a run and views during the gap arrive once, in order (header and query forms)', async () => {
    const path = '/v1/account.subscribe?accountId=1';
    const { missed, resumed } = await dropAndResume(
      path,
      auth(),
      async (client) => {
        await view(1);
        return (await client.waitFor((e) => e.event === 'account-view-tick')).id!;
      },
      async () => {
        await update(1);
        await view(1);
      },
    );
    resumed.close();
    expect(missed.filter((e) => e.event === 'account-updated').map((e) => (e.data as { status: string }).status)).toEqual([
      'pending',
      'in_progress',
      'completed',
    ]);
    expect(missed.filter((e) => e.event === 'account-update-progress').length).toBeGreaterThanOrEqual(8);
    expect(missed).toContainEqual(expect.objectContaining({ event: 'account-view-tick', data: { accountId: 1, totalDelta: 1 } }));

    // A client that saw no event before it dropped resumes from the opening block's id, here as `?lastEventId=`.
    const query = await dropAndResume(
      path,
      auth(),
      async (client) => {
        await until(() => opening(client).id !== undefined, 'the opening block');
        return opening(client).id!;
      },
      async () => {
        await view(1);
        await view(1);
      },
      (lastId) => ({ path: `${path}&lastEventId=${encodeURIComponent(lastId)}`, headers: auth() }),
    );
    query.resumed.close();
    expect(query.missed.map((e) => e.event)).toEqual(['account-view-tick', 'account-view-tick']);
  });

  it('activity.streamGlobalFeed: the activity of an update during the gap arrives once, in order', async () => {
    const { missed, resumed } = await dropAndResume(
      '/v1/activity.streamGlobalFeed',
      {},
      async (client) => {
        await until(() => opening(client).id !== undefined, 'the opening block');
        return opening(client).id!;
      },
      async () => {
        ctx.clock.advance(DAYS_90);
        await update(activityAccount);
      },
    );
    resumed.close();
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.every((e) => e.event === 'activity-emitted' && (e.data as { accountId: number }).accountId === activityAccount)).toBe(
      true,
    );
    const feed = await ctx.http().post('/v1/activity.listAccountFeed').send({ accountId: activityAccount, limit: 100 }).expect(200);
    expect(feed.body.events.length).toBe(missed.length);
  });

  it('loses and repeats nothing at the seam when events keep coming while the client reconnects', async () => {
    const events = ctx.app.get(StatsEvents);
    // The stream that never drops has its snapshot before the flood starts: a snapshot read mid-flood would sit
    // after deltas it already counts, and the reference would lack them.
    const control = await openSse(port, '/v1/stats.subscribe');
    await control.waitFor((e) => e.event === 'stats-snapshot');
    let publishing = true;
    let sent = 0;
    const publisher = (async () => {
      while (publishing) {
        await events.publish({ badges: 1 });
        sent++;
      }
    })();
    try {
      const client = await openSse(port, '/v1/stats.subscribe');
      await client.waitFor(() => client.events.filter((e) => e.event === 'stats-updated').length >= 20);
      client.close();
      const lastId = replayable(client).at(-1)!.id!;
      const resumed = await openSse(port, '/v1/stats.subscribe', { 'Last-Event-ID': lastId });
      await resumed.waitFor(() => resumed.events.filter((e) => e.event === 'stats-updated').length >= 50);
      publishing = false;
      await publisher;
      // Every published delta reaches the never-dropping stream (it opened before the flood); wait for the last.
      await until(() => control.events.filter((e) => e.event === 'stats-updated').length >= sent, 'every delta on the reference stream');
      const finalId = replayable(control).at(-1)!.id!;
      await until(() => replayable(resumed).some((e) => e.id === finalId), 'the last event on the resumed stream');
      const expected = replayable(control).filter((e) => compareIds(e.id!, lastId) > 0);
      expect(replayable(resumed)).toEqual(expected);
      expect(sent).toBeGreaterThan(50);
      resumed.close();
    } finally {
      publishing = false;
      await publisher;
      control.close();
    }
  });

  it('answers an id it cannot resume from with resync-required, then goes on from now', async () => {
    const stats = await openSse(port, '/v1/stats.subscribe', { 'Last-Event-ID': 'not-an-id' });
    const resync = await stats.waitFor((e) => e.event === 'resync-required');
    expect(resync.data).toEqual({ reason: 'malformed', refetch: [] });
    const snapshot = await stats.waitFor((e) => e.event === 'stats-snapshot');
    expect(snapshot.id).toBe(resync.id);
    expect(opening(stats)).toEqual({ id: resync.id, retry: '3000' });
    stats.close();

    const activity = await openSse(port, '/v1/activity.streamGlobalFeed?lastEventId=1-0');
    expect((await activity.waitFor((e) => e.event === 'resync-required')).data).toEqual({
      reason: 'expired',
      refetch: ['activity.listGlobalFeed'],
    });
    activity.close();

    const future = await openSse(port, '/v1/badge.pricing.subscribe', { 'Last-Event-ID': '99999999999999-0' });
    expect((await future.waitFor((e) => e.event === 'resync-required')).data).toEqual({ reason: 'unknown', refetch: ['app.listBadges'] });
    future.close();

    const site = await openSse(port, '/v1/site.subscribe', { 'Last-Event-ID': '99999999999999-0' });
    await site.waitFor((e) => e.event === 'maintenance-changed');
    expect(replayable(site).map((e) => e.event)).toEqual(['resync-required', 'maintenance-changed']);
    site.close();
  });

  it('answers an id trimmed from a small per-account buffer with resync-required', async () => {
    const path = '/v1/account.subscribe?accountId=2';
    const client = await openSse(port, path, auth());
    await until(() => opening(client).id !== undefined, 'the opening block');
    await view(2);
    const lastId = (await client.waitFor((e) => e.event === 'account-view-tick')).id!;
    client.close();
    for (let i = 0; i < 70; i++) await view(2); // past the per-account buffer (64 events)
    // Views are written behind, within VIEW_BATCH_MS; reading the counts writes what waits (AccountViewsService).
    await ctx
      .http()
      .post('/v1/account.getViewStats')
      .set(auth())
      .send({ id: { accountId: 2 } })
      .expect(200);
    const resumed = await openSse(port, path, { ...auth(), 'Last-Event-ID': lastId });
    const resync = await resumed.waitFor((e) => e.event === 'resync-required');
    expect(resync.data).toEqual({ reason: 'expired', refetch: ['account.updateProgress', 'account.getInfo', 'account.getViewStats'] });
    await sleep(300);
    expect(replayable(resumed).map((e) => e.event)).toEqual(['resync-required']);
    resumed.close();

    // An account nobody followed has no buffer: nothing to resume from.
    const unwatched = await openSse(port, `/v1/account.subscribe?accountId=5&lastEventId=${encodeURIComponent(lastId)}`, auth());
    expect(((await unwatched.waitFor((e) => e.event === 'resync-required')).data as { reason: string }).reason).toMatch(
      /^(expired|unknown)$/,
    );
    unwatched.close();
  });
});
