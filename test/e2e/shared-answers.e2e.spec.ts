import { BadgeCatalogService } from '../../src/badges/badge-catalog.service';
import { AccountLeaderboardService } from '../../src/leaderboards/account-leaderboard.service';
import { BucketLeadersService } from '../../src/leaderboards/bucket-leaders.service';
import { startPipeline, PipelineContext } from '../support/pipeline';

/** Answers shared by every caller asking the same question (src/common/shared-answers), with a lifetime of TTL_MS. */
const TTL_MS = 1500;

describe('shared answers', () => {
  let ctx: PipelineContext;
  let key: string;
  let otherKey: string;
  /** An authorised call of a wire operation (`leaderboard.getChanges`, …). */
  const post = (operation: string, body: Record<string, unknown> = {}, secret = key) =>
    ctx.http().post(`/v1/${operation}`).set('Authorization', `Bearer ${secret}`).send(body);
  const board = (body: Record<string, unknown>, secret = key) => post('leaderboard.getAccountLeaderboard', body, secret);

  beforeAll(async () => {
    ctx = await startPipeline('shared', { env: { SHARED_ANSWER_TTL_MS: String(TTL_MS) } });
    key = await ctx.apiKey(20);
    otherKey = await ctx.apiKey(21);
    await ctx.startWorker();
    for (let accountId = 2; accountId <= 9; accountId++)
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    for (let accountId = 2; accountId <= 9; accountId++) await ctx.waitForCompletion(accountId, key, 20_000);
  }, 60_000);
  afterAll(() => ctx.close());
  afterEach(() => jest.restoreAllMocks());

  it('should send the same answer within its lifetime and a fresh one after it', async () => {
    const first = await board({ leaderboard: 'xp' }).expect(200);
    expect(first.body.$schema).toBe('http://api.test/schemas/V1LeaderboardGetAccountLeaderboardResponseBody.json');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    // The headers res.json gives any wire answer: no ETag, since a POST is never answered with 304.
    expect(first.headers.etag).toBeUndefined();
    const top = first.body.accounts[0] as { steamId: string };
    const topId = Number(BigInt(top.steamId) - 76561197960265728n);
    // The top account chooses to be hidden: a different answer, but not before the shared one has lived out its lifetime.
    await ctx.dataSource.query(`INSERT INTO account_settings (account_id, email, hidden) VALUES ($1, 'x@users.invalid', true)`, [topId]);
    try {
      const again = await board({ leaderboard: 'xp' }).expect(200);
      expect(again.text).toBe(first.text);
      await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
      const fresh = await board({ leaderboard: 'xp' }).expect(200);
      expect(fresh.body.accounts[0]).toBeNull();
      expect(fresh.body.hiddenRanks).toEqual([1]);
    } finally {
      await ctx.dataSource.query('DELETE FROM account_settings WHERE account_id = $1', [topId]);
    }
  });

  it('should compute the next answer ahead in the second half of the lifetime, its callers not waiting for it', async () => {
    const service = ctx.app.get(AccountLeaderboardService);
    const original = service.get.bind(service);
    let gate: Promise<void> = Promise.resolve();
    const computed = jest.spyOn(service, 'get').mockImplementation(async (...args: Parameters<typeof original>) => {
      await gate;
      return original(...args);
    });
    const question = { leaderboard: 'xp', start: 1, end: 5 };
    const first = await board(question).expect(200);
    const topId = Number(BigInt((first.body.accounts[0] as { steamId: string }).steamId) - 76561197960265728n);
    await new Promise((resolve) => setTimeout(resolve, TTL_MS / 2 + 100));
    let open = () => {};
    gate = new Promise((resolve) => (open = resolve));
    await ctx.dataSource.query(`INSERT INTO account_settings (account_id, email, hidden) VALUES ($1, 'x@users.invalid', true)`, [topId]);
    try {
      // Past half its lifetime: the kept answer at once, while the next one (held at the gate) is being computed.
      const kept = await board(question).expect(200);
      expect(kept.text).toBe(first.text);
      expect(computed).toHaveBeenCalledTimes(2);
      open();
      await computed.mock.results[1].value;
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The next answer replaces the kept one as soon as it is ready, before the kept one's lifetime is out.
      const fresh = await board(question).expect(200);
      expect(fresh.body.accounts[0]).toBeNull();
      expect(fresh.body.hiddenRanks).toEqual([1]);
      expect(computed).toHaveBeenCalledTimes(2);
    } finally {
      open();
      await ctx.dataSource.query('DELETE FROM account_settings WHERE account_id = $1', [topId]);
    }
  });

  it('should compute once for concurrent identical questions, and once per question', async () => {
    const computed = jest.spyOn(ctx.app.get(AccountLeaderboardService), 'get');
    const question = { leaderboard: 'badges', start: 1, end: 3 };
    const answers = await Promise.all(Array.from({ length: 12 }, () => board(question)));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(computed).toHaveBeenCalledTimes(1);
    // Another window, and the same window for another caller (whose own row may differ), are other questions.
    await board({ leaderboard: 'badges', start: 1, end: 4 }).expect(200);
    await board(question, otherKey).expect(200);
    expect(computed).toHaveBeenCalledTimes(3);
    expect(computed.mock.calls.map(([, caller]) => caller)).toEqual([20, 20, 21]);
  });

  it('should let requests join a computation that outlasts the lifetime instead of starting it again', async () => {
    const buckets = ctx.app.get(BucketLeadersService);
    const original = buckets.leaders.bind(buckets);
    const computed = jest.spyOn(buckets, 'leaders').mockImplementation(async (body) => {
      await new Promise((resolve) => setTimeout(resolve, TTL_MS + 500));
      return original(body);
    });
    const ask = () => post('leaderboard.getBucketLeaders', { leaderboard: 'apps' });
    const first = ask();
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    const [a, b] = await Promise.all([first, ask()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.text).toBe(a.text);
    expect(computed).toHaveBeenCalledTimes(1);
  });

  it('should not keep a failed computation', async () => {
    const computed = jest.spyOn(ctx.app.get(AccountLeaderboardService), 'get');
    const unknown = { leaderboard: 'badge_highest_level', badge: { id: 999999, isFoil: true } };
    const first = await board(unknown).expect(404);
    expect(first.headers['content-type']).toMatch(/^application\/problem\+json/);
    await board(unknown).expect(404);
    expect(computed).toHaveBeenCalledTimes(2);
  });

  it('should send bare answers without a $schema link, and the movers with theirs', async () => {
    const computed = jest.spyOn(ctx.app.get(BucketLeadersService), 'leaders');
    const leaders = await post('leaderboard.getBucketLeaders', { leaderboard: 'xp' });
    expect(leaders.status).toBe(200);
    expect(Array.isArray(leaders.body)).toBe(true);
    expect(leaders.body.length).toBeGreaterThan(0);
    const again = await post('leaderboard.getBucketLeaders', { leaderboard: 'xp' });
    expect(again.text).toBe(leaders.text);
    expect(computed).toHaveBeenCalledTimes(1);
    const lowest = await post('leaderboard.getLowestRanks', { leaderboard: 'xp' });
    expect(lowest.status).toBe(200);
    expect(lowest.body.$schema).toBeUndefined();
    const movers = await ctx
      .http()
      .post('/v1/leaderboard.getChanges')
      .send({ leaderboard: 'xp', window: '24h', metric: 'score', direction: 'improvements' })
      .expect(200);
    expect(movers.body.$schema).toBe('http://api.test/schemas/LeaderboardGetChangesResponseBody.json');
    expect(Array.isArray(movers.body.changes)).toBe(true);
  });

  it('should check the badge listing’s version once per lifetime, not per request', async () => {
    const checked = jest.spyOn(ctx.app.get(BadgeCatalogService), 'holdersVersion');
    const list = () => ctx.http().post('/v1/leaderboard.listBadges').set('Authorization', `Bearer ${key}`).expect(200);
    const first = await list();
    expect(first.body.$schema).toBe('http://api.test/schemas/V1LeaderboardListBadgesResponseBody.json');
    expect(first.body.badges.length).toBeGreaterThan(0);
    expect((await list()).text).toBe(first.text);
    expect(checked).toHaveBeenCalledTimes(1);
  });
});
