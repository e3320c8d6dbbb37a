import { startPipeline, PipelineContext } from '../support/pipeline';

describe('leaderboard.getAccountLeaderboard', () => {
  let ctx: PipelineContext;
  let key: string;
  const board = (body: Record<string, unknown>) =>
    ctx.http().post('/v1/leaderboard.getAccountLeaderboard').set('Authorization', `Bearer ${key}`).send(body);
  const idOf = (steamId: string) => Number(BigInt(steamId) - 76561197960265728n);

  beforeAll(async () => {
    ctx = await startPipeline('leaderboard');
    key = await ctx.apiKey(30);
    await ctx.startWorker();
    for (let accountId = 2; accountId <= 31; accountId++) {
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    }
    for (let accountId = 2; accountId <= 31; accountId++) await ctx.waitForCompletion(accountId, key, 20_000);
  }, 60_000);
  afterAll(() => ctx.close());

  it('should rank refreshed accounts by xp, window by window, with the caller outside the window', async () => {
    const expected: { account_id: number; xp: number }[] = await ctx.dataSource.query(
      'SELECT account_id, xp FROM accounts WHERE updated_at IS NOT NULL ORDER BY xp DESC, account_id',
    );
    const top = await board({ leaderboard: 'xp' }).expect(200);
    expect(top.body.rankedOutOf).toBe(30);
    expect(top.body.accounts.map((a: { steamId: string }) => idOf(a.steamId))).toEqual(expected.slice(0, 10).map((r) => r.account_id));
    expect(top.body.accounts.map((a: { rank: number }) => a.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(top.body.accounts[0]).toMatchObject({ xp: expected[0].xp, appPlaytime: null });
    const callerRank = expected.findIndex((r) => r.account_id === 30) + 1;
    if (callerRank > 10) expect(top.body.ownAccount).toMatchObject({ rank: callerRank });
    else expect(top.body.ownAccount).toBeUndefined();
    const window = await board({ leaderboard: 'xp', start: 11, end: 15 }).expect(200);
    expect(window.body.accounts.map((a: { rank: number }) => a.rank)).toEqual([11, 12, 13, 14, 15]);
    const centred = await board({ leaderboard: 'xp', start: 1, end: 5, goToLeaderboardRank: 20 }).expect(200);
    expect(centred.body.accounts.map((a: { rank: number }) => a.rank)).toEqual([18, 19, 20, 21, 22]);
  });

  it('should keep hidden accounts in their place but show them as null rows with their ranks in hiddenRanks', async () => {
    const [{ account_id: first }] = await ctx.dataSource.query(
      'SELECT account_id FROM accounts WHERE updated_at IS NOT NULL ORDER BY xp DESC, account_id LIMIT 1',
    );
    await ctx.dataSource.query(`INSERT INTO account_settings (account_id, email, hidden) VALUES ($1, 'x@users.invalid', true)`, [first]);
    const res = await board({ leaderboard: 'xp' }).expect(200);
    expect(res.body.rankedOutOf).toBe(30);
    expect(res.body.accounts[0]).toBeNull();
    expect(res.body.hiddenRanks).toEqual([1]);
    expect(res.body.accounts[1]).toMatchObject({ rank: 2 });
    expect(res.body.accounts.filter(Boolean).map((a: { steamId: string }) => idOf(a.steamId))).not.toContain(first);
    await ctx.dataSource.query('DELETE FROM account_settings WHERE account_id = $1', [first]);
  });

  it('should rank an app board by playtime on the app and a badge board by completion time', async () => {
    const [{ app_id: appId }] = await ctx.dataSource.query(
      'SELECT app_id FROM account_apps GROUP BY app_id ORDER BY count(*) DESC, app_id LIMIT 1',
    );
    const apps = await board({ leaderboard: 'app_playtime', app: { appId } }).expect(200);
    const playtimes = apps.body.accounts.map((a: { appPlaytime: number }) => a.appPlaytime);
    expect(playtimes).toEqual([...playtimes].sort((a, b) => b - a));
    expect(apps.body.app).toMatchObject({ id: appId, type: 'game' });
    await board({ leaderboard: 'app_playtime' }).expect(422);

    const [{ app_id: badgeApp }] = await ctx.dataSource.query(
      `SELECT b.app_id FROM account_badges ab JOIN badges b ON b.id = ab.badge_id WHERE b.app_id IS NOT NULL AND NOT b.is_foil
        GROUP BY b.app_id ORDER BY count(*) DESC, b.app_id LIMIT 1`,
    );
    const badges = await board({ leaderboard: 'badge_completion_time', badge: { id: badgeApp, isFoil: false } }).expect(200);
    const times = badges.body.accounts.map((a: { badgeInfo: { completionTime: string } }) => a.badgeInfo.completionTime);
    expect(times).toEqual([...times].sort());
    expect(badges.body.badgeInfo).toMatchObject({ appId: badgeApp, isFoil: false });
    await board({ leaderboard: 'badge_highest_level', badge: { id: 999999, isFoil: true } }).expect(404);
  });

  it('should restrict the board to locations', async () => {
    const [located] = await ctx.dataSource.query(
      'SELECT country_name, country_code, count(*)::int AS n FROM accounts WHERE country_name IS NOT NULL AND updated_at IS NOT NULL GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1',
    );
    expect(located).toBeDefined();
    const res = await board({ leaderboard: 'badges', location: [{ country: located.country_name }] }).expect(200);
    expect(res.body.rankedOutOf).toBe(located.n);
    expect(res.body.location).toEqual([
      { region: null, countryName: located.country_name, countryCode: located.country_code, stateName: null, cityName: null },
    ]);
  });

  it('should preview an account’s rank with its neighbours, and a hypothetical score', async () => {
    const preview = (body: Record<string, unknown>) =>
      ctx.http().post('/v1/leaderboard.previewAccountRank').set('Authorization', `Bearer ${key}`).send(body);
    const top = await board({ leaderboard: 'badges', start: 1, end: 30 }).expect(200);
    const fifth = top.body.accounts[4];
    const res = await preview({ leaderboard: 'badges', id: { steamId64: fifth.steamId } }).expect(200);
    expect(res.body.ownAccount).toMatchObject({ steamId: fifth.steamId, rank: 5, score: fifth.badges, differenceToUs: 0 });
    expect(res.body.rankedAbove).toMatchObject({ steamId: top.body.accounts[3].steamId, rank: 4 });
    expect(res.body.rankedBelow).toMatchObject({ steamId: top.body.accounts[5].steamId, rank: 6 });
    expect(res.body.rankedAbove.differenceToUs).toBe(top.body.accounts[3].badges - fifth.badges);
    expect(res.body.rankedOutOf).toBe(top.body.rankedOutOf);
    const best = await preview({ leaderboard: 'badges', value: 1_000_000 }).expect(200);
    expect(best.body.ownAccount).toBeUndefined();
    expect(best.body.rankedAbove).toBeUndefined();
    expect(best.body.rankedBelow).toMatchObject({ steamId: top.body.accounts[0].steamId, rank: 2 });
    await preview({ leaderboard: 'badges' }).expect(422);
    await preview({ leaderboard: 'badge_completion_time', value: 3 }).expect(422);
  });

  it('should name the leader of every level bucket, with its rank on the xp board', async () => {
    const res = await ctx
      .http()
      .post('/v1/leaderboard.getBucketLeaders')
      .set('Authorization', `Bearer ${key}`)
      .send({ leaderboard: 'xp', bucketSize: 20 })
      .expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    const xpBoard = await board({ leaderboard: 'xp', start: 1, end: 30 }).expect(200);
    const rankOf = new Map(xpBoard.body.accounts.map((a: { steamId: string; rank: number }) => [a.steamId, a.rank]));
    expect(res.body[0]).toMatchObject({ from: 0, to: 19 });
    expect(res.body[res.body.length - 1].open).toBe(true);
    for (const bucket of res.body) {
      if (bucket.empty) continue;
      expect(bucket.account.level).toBeGreaterThanOrEqual(bucket.from);
      if (!bucket.open) expect(bucket.account.level).toBeLessThanOrEqual(bucket.to);
      expect(bucket.score).toBe(bucket.account.xp);
      expect(bucket.rank).toBe(rankOf.get(bucket.account.steamId));
    }
    const apps = await ctx
      .http()
      .post('/v1/leaderboard.getBucketLeaders')
      .set('Authorization', `Bearer ${key}`)
      .send({ leaderboard: 'apps' })
      .expect(200);
    expect(apps.body[0]).toMatchObject({ from: 1, to: 4, open: false });
  });

  it('should refuse windows over 100 ranks and unknown boards', async () => {
    await board({ leaderboard: 'xp', start: 1, end: 500 }).expect(403);
    await board({ leaderboard: 'nope' }).expect(422);
    await board({ leaderboard: 'xp', start: 5, end: 2 }).expect(422);
  });
});
