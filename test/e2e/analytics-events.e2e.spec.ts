import { ApiKeyService } from '../../src/auth/api-key.service';
import { startTestApp, TestContext } from '../support/test-app';
import { matchesDocument } from '../support/wire-answers';

/**
 * analytics.trackEvent feeds the counters that exist (account.getViewStats / account.getTrending, search.getTrending),
 * for frontend keys and signed-in users only.
 */
describe('analytics.trackEvent', () => {
  let ctx: TestContext;
  let frontendKey: string;
  let plainKey: string;
  let session: string;

  beforeAll(async () => {
    ctx = await startTestApp('trackevent');
    await ctx.apiKey(2); // the viewed profile: stored
    plainKey = await ctx.apiKey(1);
    frontendKey = (await ctx.app.get(ApiKeyService).create({ accountId: 1, name: 'web app', frontend: true })).secret;
    session = (await ctx.session(3)).sessionToken;
  });
  afterAll(() => ctx.close());

  const track = (credential: string, body: object) =>
    ctx
      .http()
      .post('/v1/analytics.trackEvent')
      .set('Authorization', `Bearer ${credential}`)
      .send(body)
      .expect(matchesDocument('analytics.trackEvent'));
  const viewStats = async () =>
    (
      await ctx
        .http()
        .post('/v1/account.getViewStats')
        .set('Authorization', `Bearer ${plainKey}`)
        .send({ id: { accountId: 2 } })
        .expect(200)
    ).body as { unique24h: number; total24h: number };

  it('should refuse API keys that are not frontend keys, and callers without a credential', async () => {
    const refused = await track(plainKey, { type: 'profile_view', payload: { accountId: 2 } });
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/problem\+json/);
    await ctx
      .http()
      .post('/v1/analytics.trackEvent')
      .send({ type: 'profile_view', payload: { accountId: 2 } })
      .expect(401);
    expect(await viewStats()).toMatchObject({ unique24h: 0, total24h: 0 });
  });

  it('should count a profile view as account.getInfo does: the same counters, once per viewer', async () => {
    const before = await viewStats();
    for (let i = 0; i < 5; i++) {
      const res = await track(frontendKey, { type: 'profile_view', payload: { accountId: 2 } }).expect(200);
      expect(res.body).toMatchObject({ ok: true });
    }
    await track(session, { type: 'profile_view', payload: { accountId: 2 } }).expect(200);
    // A getInfo of the frontend key's account from the same address is the same viewer: nothing more.
    await ctx
      .http()
      .post('/v1/account.getInfo')
      .set('Authorization', `Bearer ${frontendKey}`)
      .send({ id: { accountId: 2 } })
      .expect(200);
    const after = await viewStats();
    expect(after.unique24h - before.unique24h).toBe(2);
    expect(after.total24h - before.total24h).toBe(2);
    const trending = await ctx.http().post('/v1/account.getTrending').send({ window: '24h', limit: 5 }).expect(200);
    expect(trending.body.accounts.find((row: { accountId: number }) => row.accountId === 2)).toMatchObject({ uniqueViews: 2 });
    // Account 2 chooses to be hidden, then shown again: trending for nobody meanwhile. The API holds who is hidden in its
    // card replica, from the change feed; a read waits for the change its own process nudged.
    const owner = (await ctx.session(2)).sessionToken;
    const hide = (hidden: boolean) =>
      ctx
        .http()
        .post('/v1/account.updateSettings')
        .set('Authorization', `Bearer ${owner}`)
        .send({ hidden, language: 'en', vanity: null })
        .expect(204);
    const trendingIds = async () =>
      (
        (await ctx.http().post('/v1/account.getTrending').send({ window: '24h', limit: 5 }).expect(200)).body.accounts as {
          accountId: number;
        }[]
      ).map((row) => row.accountId);
    await hide(true);
    expect(await trendingIds()).not.toContain(2);
    await hide(false);
    expect(await trendingIds()).toContain(2);
    // A profile the service does not track gets no counters.
    const untracked = await track(frontendKey, { type: 'profile_view', payload: { accountId: 999 } }).expect(200);
    expect(untracked.body).toMatchObject({ ok: false });
  });

  it('should count a search in search.getTrending', async () => {
    await track(frontendKey, { type: 'search', payload: { source: 'app', query: 'Half  Life', resultCount: 3 } })
      .expect(200)
      .expect((res) => expect(res.body.ok).toBe(true));
    await track(session, { type: 'search', payload: { source: 'app', query: 'half life', resultCount: 3 } }).expect(200);
    const trending = await ctx
      .http()
      .post('/v1/search.getTrending')
      .set('Authorization', `Bearer ${plainKey}`)
      .send({ source: 'app', window: '24h' })
      .expect(200);
    expect(trending.body.searches).toEqual([{ query: 'Half  Life', uniqueSearchers: 2, totalSearches: 2 }]);
  });

  it('should count nothing for an event without its fields, and refuse invalid values with 422', async () => {
    const before = await viewStats();
    expect((await track(frontendKey, { type: 'profile_view', payload: {} }).expect(200)).body).toMatchObject({ ok: false });
    expect((await track(session, { type: 'search', payload: { source: 'badge' } }).expect(200)).body).toMatchObject({ ok: false });
    expect((await track(session, { type: 'search', payload: { source: 'badge', query: '   ' } }).expect(200)).body).toMatchObject({
      ok: false,
    });
    await track(session, { type: 'click', payload: {} }).expect(422);
    const long = await track(session, { type: 'search', payload: { source: 'badge', query: 'x'.repeat(101) } });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].location).toBe('body.payload.query');
    await track(session, { type: 'profile_view', payload: { accountId: 2 ** 31 } }).expect(422);
    await track(session, { type: 'search', payload: { source: 'web', query: 'x' } }).expect(422);
    expect(await viewStats()).toEqual(before);
    const badges = await ctx
      .http()
      .post('/v1/search.getTrending')
      .set('Authorization', `Bearer ${plainKey}`)
      .send({ source: 'badge', window: '24h' })
      .expect(200);
    expect(badges.body.searches).toEqual([]);
  });
});
