import { AddressInfo } from 'node:net';
import { DonationsService } from '../../src/donations/donations.service';
import { MaintenanceAdmin } from '../../src/maintenance/maintenance-admin.service';
import { CLI_ACTOR } from '../../src/staff/audit-log';
import { openSse } from '../support/sse';
import { startTestApp, TestContext } from '../support/test-app';

describe('site.subscribe and donate.getGoal', () => {
  let ctx: TestContext;
  let port: number;

  beforeAll(async () => {
    ctx = await startTestApp('site', { STREAM_HEARTBEAT_MS: '200', DONATION_GOAL_CENTS: '10000' });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  it('should send the current broadcasts on connect and the whole set again after each change', async () => {
    const maintenance = ctx.app.get(MaintenanceAdmin);
    const first = await maintenance.create(CLI_ACTOR, { title: 'Database upgrade', message: 'Back **soon**', paths: ['/leaderboards'] });
    const stream = await openSse(port, '/v1/site.subscribe');
    try {
      const initial = await stream.waitFor((e) => e.event === 'maintenance-changed');
      expect((initial.data as { items: { uid: string }[] }).items).toEqual([
        expect.objectContaining({
          uid: first.uid,
          title: 'Database upgrade',
          enabled: true,
          paths: ['/leaderboards'],
          $schema: 'http://api.test/schemas/MaintenanceEvent.json',
        }),
      ]);
      await maintenance.update(CLI_ACTOR, first.uid, { enabled: false });
      const changed = await stream.waitFor(
        (e) => e.event === 'maintenance-changed' && !(e.data as { items: { enabled: boolean }[] }).items[0].enabled,
      );
      expect((changed.data as { items: unknown[] }).items).toHaveLength(1);
      await stream.waitFor((e) => e.event === 'heartbeat');
    } finally {
      stream.close();
    }
  });

  it('should add up this month’s donations toward the goal without a credential', async () => {
    const donations = ctx.app.get(DonationsService);
    await ctx.session(7);
    await ctx.session(8);
    // Supporters come latest donation first: explicit times a second apart in this month, since donations recorded
    // one after the other can share a millisecond on a fast machine (then the account id decides).
    const now = new Date();
    const inThisMonth = (second: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 0, 0, second));
    await donations.record(500, 7, inThisMonth(1));
    await donations.record(250, 7, inThisMonth(2));
    await donations.record(1000, 8, inThisMonth(3));
    await donations.record(300, null, inThisMonth(4));
    await donations.record(9999, 8, new Date(Date.UTC(2020, 0, 1)));
    const res = await ctx.http().post('/v1/donate.getGoal').expect(200);
    expect(res.body).toMatchObject({
      month: new Date().toISOString().slice(0, 7),
      goalCents: 10000,
      raisedCents: 2050,
      supporterCount: 3,
      anonymousCount: 1,
    });
    expect(res.body.supporters.map((s: { accountId: number; monthCents: number }) => [s.accountId, s.monthCents])).toEqual([
      [8, 1000],
      [7, 750],
    ]);
    const [{ donated }] = await ctx.dataSource.query('SELECT donated FROM accounts WHERE account_id = 8');
    expect(donated).toBe(1000 + 9999);
  });
});
