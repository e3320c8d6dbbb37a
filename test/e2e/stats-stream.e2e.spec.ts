import { AddressInfo } from 'node:net';
import { openSse } from '../support/sse';
import { startPipeline, PipelineContext } from '../support/pipeline';

describe('stats.subscribe', () => {
  let ctx: PipelineContext;
  let port: number;

  beforeAll(async () => {
    ctx = await startPipeline('statsstream', { env: { STREAM_HEARTBEAT_MS: '200' } });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    await ctx.startWorker();
  });
  afterAll(() => ctx.close());

  it('should send a snapshot, then deltas that add up to the new totals, without a credential', async () => {
    const key = await ctx.apiKey(1);
    const stream = await openSse(port, '/v1/stats.subscribe');
    try {
      expect(stream.status).toBe(200);
      const snapshot = (await stream.waitFor((e) => e.event === 'stats-snapshot')).data as Record<string, number | string>;
      expect(snapshot.$schema).toBe('http://api.test/schemas/V1Stats.json');
      for (const accountId of [3, 4]) {
        await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
        await ctx.waitForCompletion(accountId, key);
      }
      await stream.waitFor(
        (e) =>
          e.event === 'stats-updated' &&
          (e.data as { deltas: Record<string, number> }).deltas.accountsUpdated === 1 &&
          stream.events.filter((x) => x.event === 'stats-updated').length >= 4,
      );
      await stream.waitFor((e) => e.event === 'stats-heartbeat');
      const totals: Record<string, number> = Object.fromEntries(Object.entries(snapshot).filter(([name]) => name !== '$schema')) as Record<
        string,
        number
      >;
      for (const event of stream.events.filter((e) => e.event === 'stats-updated')) {
        const { date, deltas } = event.data as { date: string; deltas: Record<string, number> };
        expect(Number.isNaN(Date.parse(date))).toBe(false);
        for (const [name, value] of Object.entries(deltas)) totals[name] += value;
      }
      const now = await ctx.http().post('/v1/stats.getStats').set('Authorization', `Bearer ${key}`).expect(200);
      const { $schema, ...expected } = now.body;
      expect(totals).toEqual(expected);
      expect(totals.accountsUpdated).toBe((snapshot.accountsUpdated as number) + 2);
    } finally {
      stream.close();
    }
  });
});
