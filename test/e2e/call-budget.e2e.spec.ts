import { Queue } from 'bullmq';
import { redisConnectionOptions } from '../../src/common/redis/redis-connection';
import { AccountUpdateQueueService } from '../../src/refresh/account-update-queue.service';
import { ACCOUNT_UPDATE_QUEUE, accountUpdateJobId } from '../../src/refresh/update-queue.constants';
import { startPipeline, PipelineContext } from '../support/pipeline';

describe('platform call budget', () => {
  let ctx: PipelineContext;
  beforeAll(async () => {
    // Enough for queueing (one summary call) and a little of the refresh, not for all of it.
    ctx = await startPipeline('budget', { env: { PLATFORM_DAILY_CALL_BUDGET: '4' } });
    await ctx.startWorker();
  });
  afterAll(() => ctx.close());

  it('should postpone an update to the next UTC day when the budget runs out, without failing it', async () => {
    // Queued as the operator's CLI does: a request would first have to reserve the update's calls against its
    // account's share of this tiny budget (platform-spending.e2e.spec.ts), which it cannot.
    expect(await ctx.app.get(AccountUpdateQueueService).queueTrusted({ id: { accountId: 5 } }, false)).toBe(true);
    const queue = new Queue(ACCOUNT_UPDATE_QUEUE, {
      connection: redisConnectionOptions(ctx.config.redisUrl),
      prefix: `${ctx.config.redisPrefix}:bull`,
    });
    try {
      const [run] = await ctx.dataSource.query('SELECT run_id FROM account_updates WHERE account_id = 5');
      const deadline = Date.now() + 10_000;
      let state = '';
      while (Date.now() < deadline && state !== 'delayed') {
        state = (await (await queue.getJob(accountUpdateJobId(5, run.run_id)))?.getState()) ?? 'missing';
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(state).toBe('delayed');
      const [account] = await ctx.dataSource.query('SELECT last_queue_status FROM accounts WHERE account_id = 5');
      expect(account.last_queue_status).toBe('pending');
      const runs = await ctx.dataSource.query('SELECT status FROM account_updates WHERE account_id = 5');
      expect(runs).toEqual([{ status: 'pending' }]);
    } finally {
      await queue.close();
    }
  });
});
