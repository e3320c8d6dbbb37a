import { startPipeline, PipelineContext } from '../support/pipeline';

describe('account.listApps and account.listFriends', () => {
  let ctx: PipelineContext;
  let key: string;
  let accountId: number;
  let friendId: number;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    ctx = await startPipeline('library');
    key = await ctx.apiKey(1);
    await ctx.startWorker();
    const universe = ctx.simulator.universe;
    const tick = universe.tickAt(ctx.clock.now);
    // A public account with a public friend, enough games for more than one page, and trading cards to group into sets
    // (most inventories hold a single item or none).
    const holdsCards = (id: number) =>
      universe.inventory(id).some((item) => item.marketFeeApp !== undefined && item.tags.some((t) => t.internalName === 'item_class_2'));
    for (let id = 2; id < 300 && !accountId; id++) {
      if (universe.isPrivate(id) || universe.ownedGames(id, tick).length <= 50 || !holdsCards(id)) continue;
      const friend = universe.friendIds(id, tick).find((f) => f <= 300 && !universe.isPrivate(f));
      if (friend) [accountId, friendId] = [id, friend];
    }
    for (const id of [accountId, friendId]) {
      await ctx
        .http()
        .post('/v1/account.queueUpdate')
        .set(auth())
        .send({ id: { accountId: id } })
        .expect(204);
      await ctx.waitForCompletion(id, key);
    }
  });
  afterAll(() => ctx.close());

  it('should page the library by playtime and match the platform', async () => {
    // The platform lists free games only once played.
    const truth = ctx.simulator.universe
      .ownedGames(accountId, ctx.simulator.universe.tickAt(ctx.clock.now))
      .filter((game) => !game.free || game.playtimeForever > 0);
    const first = await ctx.http().post('/v1/account.listApps').set(auth()).send({ id: { accountId } }).expect(200);
    expect(first.body).toMatchObject({ totalHits: truth.length, pages: Math.ceil(truth.length / 50) });
    expect(first.body.apps[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      image: expect.any(String),
      playtime: expect.any(Number),
      price: 0,
    });
    const playtimes = first.body.apps.map((a: { playtime: number }) => a.playtime);
    expect(playtimes).toEqual([...playtimes].sort((a, b) => b - a));
    expect(playtimes[0]).toBe(Math.max(...truth.map((g) => g.playtimeForever)));
    const byId = await ctx
      .http()
      .post('/v1/account.listApps')
      .set(auth())
      .send({ id: { accountId }, order: { by: 'appId', direction: 'asc' }, filters: { playtime: { min: 1 } } })
      .expect(200);
    const ids = byId.body.apps.map((a: { id: number }) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(byId.body.apps.every((a: { playtime: number }) => a.playtime >= 1)).toBe(true);
    await ctx
      .http()
      .post('/v1/account.listApps')
      .set(auth())
      .send({ id: { accountId }, order: { direction: 'asc' } })
      .expect(422);
  });

  it('should list tracked friends as leaderboard accounts with the friendship date', async () => {
    const res = await ctx.http().post('/v1/account.listFriends').set(auth()).send({ id: { accountId } }).expect(200);
    expect(res.body.$schema).toBe('http://api.test/schemas/V1AccountListFriendsResponseBody.json');
    const friend = res.body.friends.find((f: { steamId: string }) => f.steamId === (76561197960265728n + BigInt(friendId)).toString());
    expect(friend).toMatchObject({
      name: expect.any(String),
      level: expect.any(Number),
      createdAt: expect.any(String),
      roles: [],
      images: [],
    });
    expect(friend).toHaveProperty('friendsSince');
    expect(friend).not.toHaveProperty('accountId');
  });

  it('should group the caller’s cards into sets and refuse a refresh during the cooldown', async () => {
    const own = { Authorization: `Bearer ${await ctx.apiKey(accountId)}` };
    const res = await ctx.http().post('/v1/account.listInventorySets').set(own).expect(200);
    const [{ cards }] = await ctx.dataSource.query(
      `SELECT COALESCE(sum(amount), 0)::int AS cards FROM inventory_items WHERE account_id = $1 AND app_id IS NOT NULL AND kind IN ('card', 'foil_card')`,
      [accountId],
    );
    type Set = { normal: { amount: number }[]; foil: { amount: number }[]; normalSets: number; foilSets: number };
    const counted = (res.body.sets as Set[]).flatMap((set) => [...set.normal, ...set.foil]).reduce((sum, card) => sum + card.amount, 0);
    expect(cards).toBeGreaterThan(0);
    expect(counted).toBe(cards);
    for (const set of res.body.sets as Set[]) {
      if (set.normalSets > 0) expect(Math.min(...set.normal.map((card) => card.amount))).toBe(set.normalSets);
    }
    expect(res.body.inventoryUpdatedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body.nextRefreshAt).toBeGreaterThan(Date.now() / 1000 + 3000);
    const again = await ctx.http().post('/v1/account.refreshInventory').set(own).expect(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(3000);
  });

  it('should refuse a private friend list with 403', async () => {
    await ctx.dataSource.query(`UPDATE accounts SET friend_privacy = 'private' WHERE account_id = $1`, [friendId]);
    await ctx
      .http()
      .post('/v1/account.listFriends')
      .set(auth())
      .send({ id: { accountId: friendId } })
      .expect(403);
  });
});
