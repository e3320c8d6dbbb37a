import { startPipeline, PipelineContext } from '../support/pipeline';

describe('account updates: queue, worker and reads', () => {
  let ctx: PipelineContext;
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    ctx = await startPipeline('updates');
    key = await ctx.apiKey(1);
    await ctx.startWorker();
  });
  afterAll(() => ctx.close());

  /** A public account of the simulator with badges, games and friends, and one that is private. */
  const used = new Set<number>();
  const publicAccount = () => {
    const tick = ctx.simulator.universe.tickAt(ctx.clock.now);
    for (let id = 2; id < 300; id++) {
      if (used.has(id) || ctx.simulator.universe.isPrivate(id)) continue;
      const truth = ctx.simulator.universe.snapshot(id, tick);
      if (truth.badges.badges.some((b) => b.appId !== undefined) && truth.friends.length && truth.games.length) {
        used.add(id);
        return id;
      }
    }
    throw new Error('no suitable account');
  };

  it('should refresh account 1 from the platform and report what the platform reports', async () => {
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ id: { accountId: 1 } })
      .expect(204);
    const profile = await ctx.waitForCompletion(1, key);
    const truth = ctx.simulator.universe.snapshot(1, ctx.simulator.universe.tickAt(ctx.clock.now));
    const gameBadges = truth.badges.badges.filter((b) => b.appId !== undefined);
    expect(profile).toMatchObject({
      accountId: 1,
      steamId: '76561197960265729',
      name: truth.summary.personaName,
      level: truth.badges.playerLevel,
      xp: truth.badges.playerXp,
      badges: truth.badges.badges.length,
      foilBadges: gameBadges.filter((b) => b.borderColor === 1).length,
      normalBadges: gameBadges.filter((b) => b.borderColor !== 1).length,
      lastQueueStatus: 'completed',
    });
    if (!ctx.simulator.universe.isPrivate(1)) {
      expect(profile.apps).toBe(truth.games.filter((game) => !game.free || game.playtimeForever > 0).length);
      expect(profile.friends).toBe(truth.friends.length);
    }
    expect(new Date(profile.nextAllowedTime as string).getTime()).toBeGreaterThan(Date.now() + 3500 * 1000);
    expect(profile.updatedAt).not.toBeNull();
  });

  it('should queue one job for two quick requests and answer 429 with Retry-After after completion', async () => {
    const accountId = publicAccount();
    const [first, second] = await Promise.all([
      ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } }),
      ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set(auth())
        .send({ id: { steamId64: (76561197960265728n + BigInt(accountId)).toString() } }),
    ]);
    expect([first.status, second.status]).toEqual([204, 204]);
    await ctx.waitForCompletion(accountId, key);
    const runs = await ctx.dataSource.query('SELECT status FROM account_updates WHERE account_id = $1', [accountId]);
    expect(runs).toEqual([{ status: 'completed' }]);
    const third = await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } });
    expect(third.status).toBe(429);
    expect(third.headers['content-type']).toMatch(/problem\+json/);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(3000);
  });

  it('should store badges, apps and friends that agree with the profile counters and the stats', async () => {
    const accountId = publicAccount();
    const before = await ctx.http().post('/v1/stats.getStats').set(auth()).expect(200);
    await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } });
    const profile = await ctx.waitForCompletion(accountId, key);
    const [{ badges, apps, friends }] = await ctx.dataSource.query(
      `SELECT (SELECT count(*)::int FROM account_badges WHERE account_id = $1) AS badges,
              (SELECT count(*)::int FROM account_apps WHERE account_id = $1) AS apps,
              (SELECT count(*)::int FROM account_friends WHERE account_id = $1) AS friends`,
      [accountId],
    );
    expect({ badges, apps, friends }).toEqual({ badges: profile.badges, apps: profile.apps, friends: profile.friends });

    const stats = await ctx.http().post('/v1/account.getBadgeStats').set(auth()).send({ id: { accountId } }).expect(200);
    expect(stats.body.totalBadges).toBe(profile.badges);
    expect(stats.body.count.foil + stats.body.count.normal).toBe((profile.foilBadges as number) + (profile.normalBadges as number));
    expect(stats.body.count.foil).toBe(profile.foilBadges);
    const levelsTotal = Object.values(stats.body.levels as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(levelsTotal).toBe(profile.badges);

    const after = await ctx.http().post('/v1/stats.getStats').set(auth()).expect(200);
    const [sums] = await ctx.dataSource.query(
      `SELECT count(*)::int AS "totalAccounts", sum(xp)::int AS xp, sum(badges)::int AS badges, count(updated_at)::int AS "accountsUpdated",
              (SELECT sum(playtime)::int FROM account_apps) AS "appPlaytime" FROM accounts`,
    );
    expect(after.body).toMatchObject(sums);
    expect(after.body.accountsUpdated).toBe(before.body.accountsUpdated + 1);
  });

  it('should list an app’s badges with every wire field and the caller’s own progress', async () => {
    const [{ app_id: appId }] = await ctx.dataSource.query(
      `SELECT b.app_id FROM account_badges ab JOIN badges b ON b.id = ab.badge_id WHERE ab.account_id = 1 AND b.app_id IS NOT NULL LIMIT 1`,
    );
    const res = await ctx.http().post('/v1/app.listBadges').set(auth()).send({ appId }).expect(200);
    expect(res.body.$schema).toBe('http://api.test/schemas/V1AppListBadgesResponseBody.json');
    const held = res.body.badges.find((b: { accountInfo?: unknown }) => b.accountInfo);
    expect(held).toBeDefined();
    expect(Object.keys(held).sort()).toEqual(
      [
        'accountInfo',
        'appId',
        'appImage',
        'appName',
        'badgeId',
        'badgeImage',
        'baseLevel',
        'baseXp',
        'cardCount',
        'firstCompletion',
        'highestLevel',
        'isEvent',
        'isFoil',
        'isNmc',
        'isSale',
        'lastCompletion',
        'name',
        'noListing',
        'price',
        'scarcity',
        'steamId',
        'trackedHolders',
      ].sort(),
    );
    expect(held).toMatchObject({ appId, badgeId: expect.stringMatching(/^bdg_\d+$/), trackedHolders: expect.any(Number) });
    expect(held.trackedHolders).toBeGreaterThanOrEqual(1);
    expect(held.accountInfo).toEqual({ completionTime: expect.any(String), level: expect.any(Number), xp: expect.any(Number) });
    await ctx.http().post('/v1/app.listBadges').set(auth()).send({ appId: 987654321 }).expect(404);
    await ctx.http().post('/v1/app.listBadges').set(auth()).send({ appId: -1 }).expect(422);

    const board = await ctx.http().post('/v1/leaderboard.listBadges').set(auth()).expect(200);
    expect(board.body.badges.length).toBeGreaterThan(0);
    expect(board.body.badges.find((b: { badgeId: string }) => b.badgeId === held.badgeId)).toMatchObject({
      trackedHolders: held.trackedHolders,
    });
  });

  it('should report the finished run in account.updateProgress', async () => {
    const res = await ctx
      .http()
      .post('/v1/account.updateProgress')
      .set(auth())
      .send({ id: { accountId: 1 } })
      .expect(200);
    expect(res.body.progress).toMatchObject({ accountId: 1, status: 'completed', percent: 100, currentStep: 'save' });
    expect(res.body.progress.steps.map((s: { name: string }) => s.name)).toEqual([
      'profile',
      'bans',
      'badges',
      'games',
      'friends',
      'groups',
      'inventory',
      'save',
    ]);
    expect(res.body.progress.steps.every((s: { status: string }) => s.status === 'done')).toBe(true);
  });

  it('should find an account by platform vanity, and 404 for accounts the platform does not know', async () => {
    let vanity: string | null = null;
    for (let id = 200; id < 300 && !vanity; id++) vanity = ctx.simulator.universe.vanityOf(id);
    expect(vanity).not.toBeNull();
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ vanity: { type: 'steam', value: vanity } })
      .expect(204);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ vanity: { type: 'steam', value: 'nosuchvanity42x' } })
      .expect(404);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ id: { accountId: 5_000_000 } })
      .expect(404);
    await ctx
      .http()
      .post('/v1/account.getInfo')
      .set(auth())
      .send({ id: { accountId: 4_000_000 } })
      .expect(404);
    const empty = await ctx.http().post('/v1/account.getInfo').set(auth()).send({});
    expect(empty.status).toBe(422);
  });

  it('should refuse force to non-staff and let staff skip the cooldown', async () => {
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ id: { accountId: 1 }, force: true })
      .expect(403);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role, rating) VALUES (1, 'staff', 10)`);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ id: { accountId: 1 } })
      .expect(429);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(auth())
      .send({ id: { accountId: 1 }, force: true })
      .expect(204);
    await ctx.waitForCompletion(1, key);
  });

  it('should find real changes when time passes and record before and after', async () => {
    const accountId = 1;
    ctx.clock.advance(90 * 86_400_000);
    await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId }, force: true }).expect(204);
    const profile = await ctx.waitForCompletion(accountId, key);
    const truth = ctx.simulator.universe.snapshot(accountId, ctx.simulator.universe.tickAt(ctx.clock.now));
    expect(profile.xp).toBe(truth.badges.playerXp);
    const [last] = await ctx.dataSource.query(
      `SELECT before, after FROM account_updates WHERE account_id = $1 AND status = 'completed' ORDER BY finished_at DESC LIMIT 1`,
      [accountId],
    );
    expect(last.after.xp).toBe(truth.badges.playerXp);
    expect(last.before).toEqual(expect.objectContaining({ xp: expect.any(Number), level: expect.any(Number) }));
  });

  it('should re-queue an account left pending without a job when a worker starts', async () => {
    const accountId = publicAccount();
    await ctx.dataSource.query(
      `INSERT INTO accounts (account_id, last_queue_status) VALUES ($1, 'in_progress') ON CONFLICT (account_id) DO UPDATE SET last_queue_status = 'in_progress'`,
      [accountId],
    );
    await ctx.stopWorker();
    await ctx.startWorker();
    await ctx.waitForCompletion(accountId, key);
    const stuck = await ctx.dataSource.query(`SELECT account_id FROM accounts WHERE last_queue_status IN ('pending', 'in_progress')`);
    expect(stuck).toEqual([]);
  });
});
