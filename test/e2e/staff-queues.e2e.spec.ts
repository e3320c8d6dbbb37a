import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { GROUP_REFRESH_QUEUE } from '../../src/refresh/group-refresh.constants';
import { CallBudget } from '../../src/platform/client/call-budget';
import { startTestApp, TestContext } from '../support/test-app';

/** app.queueUpdate, group.queueUpdate, account.queueInventoryRefresh: staff queue many ids, with the users' rules. */
describe('staff queues', () => {
  let ctx: TestContext;
  let staff: string;
  let plain: string;
  let scout: string;
  // A budget of 40 calls covers five account updates of 8 calls.
  beforeAll(async () => {
    ctx = await startTestApp('staffqueues', { PLATFORM_DAILY_CALL_BUDGET: '40' });
    staff = await ctx.apiKey(701);
    plain = await ctx.apiKey(702);
    scout = await ctx.apiKey(703);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (701, 'staff'), (703, 'badge_scout')`);
  });
  afterAll(() => ctx.close());

  const call = (key: string | null, op: string, body: object) => {
    const req = ctx.http().post(`/v1/${op}`);
    return (key ? req.set('Authorization', `Bearer ${key}`) : req).send(body);
  };

  it('should refuse callers without a credential (401) or without a staff role (403), queueing nothing', async () => {
    const bodies: Record<string, object> = {
      'app.queueUpdate': { appIds: [10] },
      'group.queueUpdate': { groupIds: [20] },
      'account.queueInventoryRefresh': { accountIds: [702] },
    };
    for (const [op, body] of Object.entries(bodies)) {
      expect((await call(null, op, body)).status).toBe(401);
      expect((await call(plain, op, body)).status).toBe(403);
      expect((await call(scout, op, body)).status).toBe(403);
      // Bounds: no ids, too many ids, ids that are not 32-bit positive integers.
      const [field] = Object.keys(body);
      expect((await call(staff, op, { [field]: [] })).status).toBe(422);
      expect((await call(staff, op, { [field]: Array.from({ length: 101 }, (_, i) => i + 1) })).status).toBe(422);
      expect((await call(staff, op, { [field]: [0] })).status).toBe(422);
    }
    expect(await ctx.dataSource.query('SELECT * FROM account_updates')).toEqual([]);
    expect(await ctx.dataSource.query('SELECT * FROM app_pricing')).toEqual([]);
    expect(await ctx.app.get<Queue>(getQueueToken(GROUP_REFRESH_QUEUE)).getJobCounts()).toMatchObject({ waiting: 0 });
  });

  it('should move apps with cards to the head of the pricing walk, except those priced within the cooldown', async () => {
    await ctx.dataSource.query(`INSERT INTO app_card_classes (app_id, class_id) VALUES (11, 'c1'), (11, 'c2'), (12, 'c3'), (13, 'c4')`);
    await ctx.dataSource.query(
      `INSERT INTO app_pricing (app_id, checked_at) VALUES (12, now() - interval '1 day'), (13, now() - interval '1 minute')`,
    );
    await call(staff, 'app.queueUpdate', { appIds: [11, 12, 13, 14, 11] }).expect(204);
    const rows = await ctx.dataSource.query(`SELECT app_id, checked_at = to_timestamp(0) AS at_head FROM app_pricing ORDER BY app_id`);
    // 11 enrolled at the head, 12 moved there, 13 priced a minute ago left, 14 has no cards to price.
    expect(rows).toEqual([
      { app_id: 11, at_head: true },
      { app_id: 12, at_head: true },
      { app_id: 13, at_head: false },
    ]);
    // Nothing to move (no cards, or priced a minute ago): still a 204.
    await call(staff, 'app.queueUpdate', { appIds: [13, 14] }).expect(204);
  });

  it('should queue one refresh per stale group, however often asked', async () => {
    const queue = ctx.app.get<Queue>(getQueueToken(GROUP_REFRESH_QUEUE));
    await ctx.dataSource.query(
      `INSERT INTO groups (gid, privacy, refreshed_at) VALUES (21, 'public', now()), (22, 'public', now() - interval '30 days')`,
    );
    await call(staff, 'group.queueUpdate', { groupIds: [21, 22, 23] }).expect(204);
    await call(staff, 'group.queueUpdate', { groupIds: [22, 23] }).expect(204);
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active']);
    expect(jobs.map((job) => job.data.gid).sort()).toEqual([22, 23]);
    expect(jobs.map((job) => job.id).sort()).toEqual(['group-22', 'group-23']);
  });

  it('should queue an update of each tracked account once, skip cooldowns and refuse what the budget cannot cover', async () => {
    for (const accountId of [711, 712, 713]) await ctx.apiKey(accountId);
    await ctx.dataSource.query(
      `UPDATE accounts SET last_queue_status = 'completed', updated_at = now(), next_allowed_time = now() + interval '1 hour' WHERE account_id = 713`,
    );
    // 799 is not tracked: skipped.
    await call(staff, 'account.queueInventoryRefresh', { accountIds: [711, 712, 713, 799] }).expect(204);
    await call(staff, 'account.queueInventoryRefresh', { accountIds: [711, 712] }).expect(204);
    const queued = await ctx.dataSource.query(`SELECT account_id, status FROM account_updates ORDER BY account_id`);
    expect(queued).toEqual([
      { account_id: 711, status: 'pending' },
      { account_id: 712, status: 'pending' },
    ]);
    const statuses = await ctx.dataSource.query(
      `SELECT account_id, last_queue_status FROM accounts WHERE account_id IN (711, 712, 713) ORDER BY 1`,
    );
    expect(statuses.map((s: { last_queue_status: string }) => s.last_queue_status)).toEqual(['pending', 'pending', 'completed']);

    // 40 − 25 = 15 calls left: two updates (16 calls) are not covered, and nothing is queued.
    await ctx.app.get(CallBudget).take(25);
    for (const accountId of [714, 715]) await ctx.apiKey(accountId);
    const refused = await call(staff, 'account.queueInventoryRefresh', { accountIds: [714, 715] }).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.detail).toMatch(/budget has 15 calls left/);
    expect(await ctx.dataSource.query(`SELECT 1 FROM account_updates WHERE account_id IN (714, 715)`)).toEqual([]);
    await call(staff, 'account.queueInventoryRefresh', { accountIds: [714] }).expect(204);
  });
});
