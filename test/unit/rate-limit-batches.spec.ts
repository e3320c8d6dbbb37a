import fc from 'fast-check';
import Redis from 'ioredis';
import { REDIS_URL } from '../support/stores';
import { ApiKeyUsageService } from '../../src/auth/api-key-usage.service';
import { RateDecision, RateLimiter, RateSubject } from '../../src/auth/rate-limit/rate-limiter.service';
import { AppConfig } from '../../src/config/app-config';

const LIMITS = { apiKey: 4, session: 3, anonymous: 2, failedCredentials: 2, windowSeconds: 60 };

/**
 * RateLimiter.take sends the takes of one turn together, one script run per subject and guard, the runs in the order
 * of their first takes: the decisions, the windows and the usage counts must be those of the same takes sent one at a
 * time in that order (concurrent requests have no order of their own; within a subject and guard, arrival order).
 */
describe('RateLimiter takes of one turn', () => {
  const redis = new Redis(REDIS_URL);
  const root = `test:rate-batches:${process.pid}:${Date.now()}`;

  afterAll(async () => {
    const keys = await redis.keys(`${root}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  const limiterFor = (prefix: string) => {
    const config = { redisPrefix: prefix, rateLimits: LIMITS } as unknown as AppConfig;
    const usage = { pendingKey: `${prefix}:usage:pending` } as ApiKeyUsageService;
    return new RateLimiter(redis, config, usage);
  };
  const subjects: RateSubject[] = [
    { kind: 'api-key', id: 'k1' },
    { kind: 'api-key', id: 'k2' },
    { kind: 'session', id: 's1' },
    { kind: 'anonymous', id: '198.51.100.1' },
  ];
  const guards: RateSubject[] = [
    { kind: 'failed-credential', id: '198.51.100.1' },
    { kind: 'failed-credential', id: '198.51.100.2' },
  ];
  // What a client sees of a decision (the reset is the same window either way, give or take the clock's second).
  const seen = (d: RateDecision) => ({ allowed: d.allowed, limit: d.limit, remaining: d.remaining, by: d.decidedBy });

  it('should decide, count and record as one take at a time would', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ subject: fc.nat(subjects.length - 1), guard: fc.integer({ min: -1, max: guards.length - 1 }) }), {
          minLength: 1,
          maxLength: 24,
        }),
        // Failures already charged to each guard's address: 2 spends the budget.
        fc.array(fc.nat(2), { minLength: guards.length, maxLength: guards.length }),
        async (asks, charged) => {
          run++;
          const [together, alone] = [`${root}:${run}:together`, `${root}:${run}:alone`];
          const [batched, single] = [limiterFor(together), limiterFor(alone)];
          for (const limiter of [batched, single])
            for (let g = 0; g < guards.length; g++) for (let c = 0; c < charged[g]; c++) await limiter.take(guards[g]);
          const takes = asks.map(({ subject, guard }) => [subjects[subject], guard < 0 ? undefined : guards[guard]] as const);
          const all = await Promise.all(takes.map(([subject, guard]) => batched.take(subject, guard)));

          // The order the batch ran them in: by subject and guard, the groups as they first arrived.
          const groups = [...new Set(asks.map(({ subject, guard }) => `${subject}/${guard}`))];
          const order = takes
            .map((take, at) => ({ take, at, group: groups.indexOf(`${asks[at].subject}/${asks[at].guard}`) }))
            .sort((a, b) => a.group - b.group || a.at - b.at);
          const oneByOne: RateDecision[] = new Array(takes.length);
          for (const { take, at } of order) oneByOne[at] = await single.take(take[0], take[1]);

          expect(all.map(seen)).toEqual(oneByOne.map(seen));
          for (const subject of [...subjects, ...guards]) {
            const key = (prefix: string) => `${prefix}:ratelimit:${subject.kind}:${subject.id}`;
            expect(await redis.zcard(key(together))).toBe(await redis.zcard(key(alone)));
            expect(seen(await batched.peek(subject))).toEqual(seen(await single.peek(subject)));
          }
          expect(await redis.hgetall(`${together}:usage:pending`)).toEqual(await redis.hgetall(`${alone}:usage:pending`));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('should send the takes of one turn in one script run per subject and guard', async () => {
    const limiter = limiterFor(`${root}:runs`);
    // The script runs this limiter sends (Redis's own count would include other test files' runs).
    const runs = jest.spyOn(limiter as unknown as { run: () => Promise<unknown> }, 'run');
    const decisions = await Promise.all([
      ...Array.from({ length: 6 }, () => limiter.take(subjects[0], guards[0])),
      ...Array.from({ length: 3 }, () => limiter.take(subjects[1])),
    ]);
    expect(runs).toHaveBeenCalledTimes(2);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, false, false, true, true, true]);
    expect(decisions.map((d) => d.remaining)).toEqual([3, 2, 1, 0, 0, 0, 3, 2, 1]);
  });
});
