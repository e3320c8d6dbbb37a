import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PlatformSimulator } from '../../src/platform/simulator';
import { WorkerModule } from '../../src/worker.module';
import { startTestApp, TestContext } from './test-app';

/** A clock the test moves by hand, shared by the simulator so "time passing" is deterministic. */
export class ManualClock {
  constructor(public now: number) {}
  readonly read = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

export interface PipelineContext extends TestContext {
  simulator: PlatformSimulator;
  clock: ManualClock;
  simulatorUrl: string;
  worker: INestApplicationContext | null;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  /** Polls account.getInfo until `lastQueueStatus` is `completed` (or the timeout passes). */
  waitForCompletion(accountId: number, token: string, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** API + worker (in-process application context) + simulator on a manual clock, on a fresh database. */
export async function startPipeline(
  prefix: string,
  opts: { accounts?: number; seed?: number; latencyMs?: number; env?: Record<string, string> } = {},
): Promise<PipelineContext> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const simulator = new PlatformSimulator({
    seed: opts.seed ?? 7,
    accounts: opts.accounts ?? 300,
    latencyMs: opts.latencyMs ?? 0,
    apiKey: null,
    clock: clock.read,
    countRequests: true,
  });
  const port = await simulator.listen(0);
  const simulatorUrl = `http://127.0.0.1:${port}`;
  const ctx = await startTestApp(prefix, {
    PLATFORM_API_URL: simulatorUrl,
    UPDATE_COOLDOWN_SECONDS: '3600',
    UPDATE_LOCK_MS: '2000',
    UPDATE_STALLED_CHECK_MS: '1000',
    UPDATE_ATTEMPTS: '3',
    PLATFORM_MAX_RETRIES: '1',
    ...opts.env,
  });
  const pipeline: PipelineContext = {
    ...ctx,
    simulator,
    clock,
    simulatorUrl,
    worker: null,
    async startWorker() {
      pipeline.worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(ctx.config), { logger: false });
      await pipeline.worker.init();
    },
    async stopWorker() {
      await pipeline.worker?.close();
      pipeline.worker = null;
    },
    async waitForCompletion(accountId, token, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await ctx.http().post('/v1/account.getInfo').set('Authorization', `Bearer ${token}`).send({ id: { accountId } });
        // `lastQueueStatus` is the writer's commit; the ranks and the other Redis state move after it, and only then is
        // the run's progress published as completed (a test that compared ranks on the first alone failed now and then).
        if (res.body.lastQueueStatus === 'completed') {
          const progress = await ctx
            .http()
            .post('/v1/account.updateProgress')
            .set('Authorization', `Bearer ${token}`)
            .send({ id: { accountId } });
          if (!progress.body.progress || progress.body.progress.status === 'completed') return res.body;
        }
        if (Date.now() > deadline) throw new Error(`account ${accountId} not completed: ${JSON.stringify(res.body).slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      await pipeline.stopWorker();
      await ctx.close();
      await simulator.close();
    },
  };
  return pipeline;
}

/**
 * A simulated account (2–99) whose player XP grows by at least `minXp` over the next `spanMs` of the pipeline's
 * clock: one whose refresh after that span is sure to record activity (level-ups, XP milestones).
 */
export function accountGainingXp(ctx: PipelineContext, spanMs: number, minXp = 300): number {
  const universe = ctx.simulator.universe;
  const [now, later] = [universe.tickAt(ctx.clock.now), universe.tickAt(ctx.clock.now + spanMs)];
  const found = [...Array(98).keys()]
    .map((i) => i + 2)
    .find((id) => universe.badges(id, later).playerXp - universe.badges(id, now).playerXp >= minXp);
  if (found === undefined) throw new Error(`no simulated account gains ${minXp} XP in ${spanMs} ms`);
  return found;
}
