import { startTestApp, TestContext } from '../support/test-app';

/**
 * Views cannot be forged (issue 60): with no trusted proxy (TRUST_PROXY_HOPS=0, the default) a viewer is the
 * credential's account and the connection's address, whatever `X-Forwarded-For`, `X-Visitor-Id` or `User-Agent` say,
 * and a viewer counts once per profile per window.
 */
describe('profile views from one key', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('viewforgery');
  });
  afterAll(() => ctx.close());

  const stats = async (key: string, accountId: number) =>
    (await ctx.http().post('/v1/account.getViewStats').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(200))
      .body as { unique24h: number; total24h: number; unique7d: number; total7d: number; unique30d: number; total30d: number };

  it('should count 20 getInfo calls of one key from one address as one view, however they are labelled', async () => {
    const key = await ctx.apiKey(1);
    await ctx.apiKey(2); // the profile viewed: stored, never refreshed
    for (let i = 0; i < 20; i++)
      await ctx
        .http()
        .post('/v1/account.getInfo')
        .set('Authorization', `Bearer ${key}`)
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .set('X-Visitor-Id', `visitor-${i}`)
        .set('User-Agent', `agent-${i}`)
        .send({ id: { accountId: 2 } })
        .expect(200);
    expect(await stats(key, 2)).toEqual(
      expect.objectContaining({ unique24h: 1, total24h: 1, unique7d: 1, total7d: 1, unique30d: 1, total30d: 1 }),
    );
    // Not in the lead of trending by repetition either: one view.
    const trending = await ctx.http().post('/v1/account.getTrending').send({ window: '24h', limit: 5 }).expect(200);
    expect(trending.body.accounts.find((row: { accountId: number }) => row.accountId === 2)).toMatchObject({
      uniqueViews: 1,
      totalViews: 1,
    });
  });

  it('should count the keys of one account as one viewer, and another account as another', async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, () => ctx.apiKey(3)));
    await ctx.apiKey(4);
    for (const key of keys)
      await ctx
        .http()
        .post('/v1/account.getInfo')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 4 } })
        .expect(200);
    const { sessionToken } = await ctx.session(5);
    await ctx
      .http()
      .post('/v1/account.getInfo')
      .set('Authorization', `Bearer ${sessionToken}`)
      .send({ id: { accountId: 4 } })
      .expect(200);
    expect(await stats(keys[0], 4)).toEqual(expect.objectContaining({ unique24h: 2, total24h: 2 }));
  });
});
