import { startPipeline, PipelineContext } from '../support/pipeline';

const steamIdOf = (accountId: number) => (76561197960265728n + BigInt(accountId)).toString();
const idOf = (steamId: string) => Number(BigInt(steamId) - 76561197960265728n);

describe('account.findFriendPath', () => {
  let ctx: PipelineContext;
  let key: string;
  let edges: Map<number, Set<number>>;
  const find = (body: Record<string, unknown>) =>
    ctx.http().post('/v1/account.findFriendPath').set('Authorization', `Bearer ${key}`).send(body);

  /** Breadth-first distances over the stored edges, computed here independently of the service. */
  const distances = (from: number) => {
    const seen = new Map([[from, 0]]);
    const queue = [from];
    while (queue.length) {
      const node = queue.shift()!;
      for (const next of edges.get(node) ?? []) {
        if (seen.has(next)) continue;
        seen.set(next, seen.get(node)! + 1);
        queue.push(next);
      }
    }
    return seen;
  };

  beforeAll(async () => {
    ctx = await startPipeline('friendpath', { accounts: 120 });
    key = await ctx.apiKey(1);
    await ctx.startWorker();
    for (let accountId = 2; accountId <= 120; accountId++) {
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    }
    for (let accountId = 2; accountId <= 120; accountId++) await ctx.waitForCompletion(accountId, key, 30_000);
    edges = new Map();
    const rows: { a: number; b: number }[] = await ctx.dataSource.query(
      'SELECT account_id AS a, friend_account_id AS b FROM account_friends',
    );
    for (const { a, b } of rows) {
      if (!edges.has(a)) edges.set(a, new Set());
      if (!edges.has(b)) edges.set(b, new Set());
      edges.get(a)!.add(b);
      edges.get(b)!.add(a);
    }
  }, 90_000);
  afterAll(() => ctx.close());

  it('should find every shortest path, each a real chain of friends', async () => {
    const from = [...edges.keys()].filter((id) => id <= 120).sort((x, y) => edges.get(y)!.size - edges.get(x)!.size)[0];
    const reach = distances(from);
    const [to, distance] = [...reach.entries()]
      .filter(([id, d]) => d >= 2 && id <= 120 && id !== 1)
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])[0];
    const res = await find({ from: { id: { accountId: from } }, to: { id: { accountId: to } }, maxPaths: 50 }).expect(200);
    expect(res.body.found).toBe(true);
    expect(res.body.paths.length).toBeGreaterThan(0);
    for (const { distance: hops, path } of res.body.paths) {
      expect(hops).toBe(distance);
      expect(path).toHaveLength(distance + 1);
      const ids = path.map((account: { steamId: string } | null) => (account ? idOf(account.steamId) : null));
      expect(ids[0]).toBe(from);
      expect(ids[ids.length - 1]).toBe(to);
      for (let i = 1; i < ids.length; i++)
        if (ids[i] !== null && ids[i - 1] !== null) expect(edges.get(ids[i - 1])!.has(ids[i])).toBe(true);
    }
    const signatures = res.body.paths.map((p: { path: ({ steamId: string } | null)[] }) => p.path.map((a) => a?.steamId ?? '?').join('>'));
    expect(new Set(signatures).size).toBe(signatures.length);
  });

  it('should give exactly one path for a direct friendship and respect exclusions', async () => {
    const [a, neighbours] = [...edges.entries()].find(([id, set]) => id <= 120 && [...set].some((b) => b <= 120))!;
    const b = [...neighbours].find((id) => id <= 120)!;
    const direct = await find({ from: { id: { accountId: a } }, to: { id: { steamId64: steamIdOf(b) } } }).expect(200);
    expect(direct.body.paths).toHaveLength(1);
    expect(direct.body.paths[0].distance).toBe(1);
    const around = await find({ from: { id: { accountId: a } }, to: { id: { accountId: b } }, exclude: [{ id: { accountId: b } }] }).expect(
      200,
    );
    expect(around.body.paths[0].distance).toBe(1);
  });

  it('should list the owners of an item, most copies first, with friend paths for a signed-in caller', async () => {
    const [{ class_id: classId, owners }] = await ctx.dataSource.query(
      'SELECT class_id, count(*)::int AS owners FROM inventory_items GROUP BY class_id ORDER BY count(*) DESC, class_id LIMIT 1',
    );
    const anonymous = await ctx
      .http()
      .post('/v1/item.findOwners')
      .send({ itemIds: [Number(classId)], ownersPerItem: 25 })
      .expect(200);
    const [item] = anonymous.body.items;
    expect(item).toMatchObject({ classId: Number(classId), totalOwners: owners });
    const amounts = item.owners.map((o: { amount: number }) => o.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(item.owners.every((o: { pathFound: boolean; path?: unknown }) => o.pathFound === false && o.path === undefined)).toBe(true);

    // A caller who is a friend of an owner sees a one-hop path to it.
    const owner = item.owners
      .map((o: { account: { steamId: string } }) => idOf(o.account.steamId))
      .find((id: number) => [...(edges.get(id) ?? [])].some((f) => f <= 120));
    expect(owner).toBeDefined();
    const friend = [...edges.get(owner)!].find((id) => id <= 120)!;
    const signedIn = await ctx
      .http()
      .post('/v1/item.findOwners')
      .set('Authorization', `Bearer ${await ctx.apiKey(friend)}`)
      .send({ itemIds: [Number(classId)], ownersPerItem: 25 })
      .expect(200);
    const seen = signedIn.body.items[0].owners.find((o: { account: { steamId: string } }) => idOf(o.account.steamId) === owner);
    expect(seen).toMatchObject({ pathFound: true, distance: 1 });
    expect(seen.path.map((a: { steamId: string }) => idOf(a.steamId))).toEqual([friend, owner]);
    const second = await ctx
      .http()
      .post('/v1/item.findOwners')
      .send({ itemIds: [Number(classId)], ownersPerItem: 2, offset: 2 })
      .expect(200);
    expect(second.body.items[0].owners.map((o: { amount: number }) => o.amount)).toEqual(amounts.slice(2, 4));
    await ctx
      .http()
      .post('/v1/item.findOwners')
      .send({ itemIds: [1], ownersPerItem: 26 })
      .expect(422);
  });

  it('should answer 404 for an untracked account and 422 for a bad selector', async () => {
    await find({ from: { id: { accountId: 2 } }, to: { id: { accountId: 999_999 } } }).expect(404);
    await find({ from: { id: { accountId: 2 } } }).expect(422);
    await find({ from: { id: { accountId: 2 } }, to: { id: { accountId: 3 } }, maxPaths: 51 }).expect(422);
  });
});
