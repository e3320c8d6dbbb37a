import { AddressInfo } from 'node:net';
import { openSse } from '../support/sse';
import { accountGainingXp, PipelineContext, startPipeline } from '../support/pipeline';

describe('activity feeds', () => {
  let ctx: PipelineContext;
  let port: number;
  let key: string;
  let accountId: number;
  const DAYS_90 = 90 * 86_400_000;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    ctx = await startPipeline('activity', { env: { STREAM_HEARTBEAT_MS: '200' } });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    key = await ctx.apiKey(1);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'staff')`);
    await ctx.startWorker();
    accountId = accountGainingXp(ctx, DAYS_90);
    await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } }).expect(204);
    await ctx.waitForCompletion(accountId, key);
  });
  afterAll(() => ctx.close());

  it('should take an account’s first update as its baseline, then report what later updates find', async () => {
    const baseline = await ctx.http().post('/v1/activity.listAccountFeed').send({ accountId }).expect(200);
    expect(baseline.body.events).toEqual([]);
    const stream = await openSse(port, '/v1/activity.streamGlobalFeed');
    try {
      await stream.waitFor((e) => e.event === 'activity-heartbeat');
      ctx.clock.advance(DAYS_90);
      await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId }, force: true }).expect(204);
      await ctx.waitForCompletion(accountId, key);
      const feed = await ctx.http().post('/v1/activity.listAccountFeed').send({ accountId, limit: 100 }).expect(200);
      const crafted = feed.body.events.filter((e: { eventType: string }) => e.eventType === 'badge_crafted');
      expect(crafted.length).toBeGreaterThan(0);
      expect(crafted[0]).toMatchObject({
        accountId,
        appBadge: { accountInfo: { level: expect.any(Number) } },
        account: { name: expect.any(String) },
      });
      const times = feed.body.events.map((e: { occurredAt: string }) => e.occurredAt);
      expect(times).toEqual([...times].sort().reverse());
      const emitted = await stream.waitFor((e) => e.event === 'activity-emitted');
      expect((emitted.data as { accountId: number }).accountId).toBe(accountId);
    } finally {
      stream.close();
    }
  });

  it('should list the account as a mover on the xp board', async () => {
    const [run] = await ctx.dataSource.query(
      `SELECT before, after FROM account_updates WHERE account_id = $1 AND status = 'completed' ORDER BY finished_at DESC LIMIT 1`,
      [accountId],
    );
    const res = await ctx
      .http()
      .post('/v1/leaderboard.getChanges')
      .send({ leaderboard: 'xp', window: '24h', metric: 'score', direction: 'improvements' })
      .expect(200);
    expect(res.body.changes).toEqual([
      expect.objectContaining({
        accountId,
        oldScore: run.before.xp,
        newScore: run.after.xp,
        scoreDelta: run.after.xp - run.before.xp,
        oldRank: 1,
        newRank: 1,
        rankDelta: 0,
      }),
    ]);
    const declines = await ctx
      .http()
      .post('/v1/leaderboard.getChanges')
      .send({ leaderboard: 'xp', window: '24h', metric: 'score', direction: 'declines' })
      .expect(200);
    expect(declines.body.changes).toEqual([]);
    await ctx
      .http()
      .post('/v1/leaderboard.getChanges')
      .send({ leaderboard: 'xp', window: '2d', metric: 'score', direction: 'declines' })
      .expect(422);
  });

  it('should page with a cursor and filter by event type', async () => {
    const all = await ctx.http().post('/v1/activity.listGlobalFeed').send({ limit: 100 }).expect(200);
    const first = await ctx.http().post('/v1/activity.listGlobalFeed').send({ limit: 1 }).expect(200);
    expect(first.body.events).toHaveLength(1);
    if (all.body.events.length > 1) {
      const second = await ctx.http().post('/v1/activity.listGlobalFeed').send({ limit: 1, cursor: first.body.nextCursor }).expect(200);
      expect(second.body.events[0]).toEqual(all.body.events[1]);
    }
    const filtered = await ctx
      .http()
      .post('/v1/activity.listGlobalFeed')
      .send({ eventTypes: ['level_milestone'], limit: 100 })
      .expect(200);
    expect(filtered.body.events.every((e: { eventType: string }) => e.eventType === 'level_milestone')).toBe(true);
    await ctx.http().post('/v1/activity.listGlobalFeed').send({ limit: 101 }).expect(422);
  });
});
