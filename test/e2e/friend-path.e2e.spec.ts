import Redis from 'ioredis';
import { FriendGraphService } from '../../src/accounts/friend-graph.service';
import { AccountAdminService } from '../../src/accounts/account-admin.service';
import { FriendGraphCache } from '../../src/accounts/friends/friend-graph-cache.service';
import { REDIS } from '../../src/common/redis/redis.module';
import { findFriendPaths } from '../../src/accounts/friends/friend-search';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { referenceFriendPaths } from '../support/reference-friend-paths';
import { killSubscribers } from '../support/subscribers';
import { ChangeFeed } from '../../src/change-feed/change-feed';
import { ChangeFeedFollower } from '../../src/change-feed/change-feed-follower';
import { nudgeChannel } from '../../src/change-feed/change-entry';

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

  /** The paths the former one-sided search listed (breadth-first from `from`, FriendGraphService.paths), as ids. */
  const referencePaths = (from: number, to: number, limit: number, exclude = new Set<number>()) =>
    referenceFriendPaths((id) => edges.get(id) ?? [], from, to, { exclude, limit });
  const idsOf = (body: { found: boolean; paths: { distance: number; path: ({ steamId: string } | null)[] }[] }) =>
    body.paths.map(({ distance, path }) => {
      expect(path).toHaveLength(distance + 1);
      return path.map((account) => idOf(account!.steamId));
    });
  /**
   * What the worker does when an update replaces a friend list: the rows and the run's change feed entry in one
   * transaction, then a nudge (unless `nudge` is false: a nudge lost).
   */
  const storeFriends = async (accountId: number, friends: number[], nudge = true) => {
    const feed = ctx.app.get(ChangeFeed);
    await ctx.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM account_friends WHERE account_id = $1', [accountId]);
      await manager.query('INSERT INTO account_friends (account_id, friend_account_id) SELECT $1, unnest($2::int[])', [accountId, friends]);
      await feed.record(manager, { kind: 'update-run', accountIds: [accountId] });
    });
    if (nudge) await feed.nudge([accountId]);
  };
  /** Until the in-memory graph is loaded and followed. */
  const untilLoaded = async () => {
    const graph = ctx.app.get(FriendGraphCache);
    const deadline = Date.now() + 10_000;
    while (!graph.loaded && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(graph.loaded).toBe(true);
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

  it('should answer from memory exactly as the former search of the tables, for every distance found', async () => {
    expect(ctx.app.get(FriendGraphCache).loaded).toBe(true);
    const tracked = [...edges.keys()].filter((id) => id <= 120).sort((x, y) => x - y);
    const byDistance = new Map<number, [number, number][]>();
    for (const from of tracked.slice(0, 20))
      for (const [to, d] of distances(from)) if (to !== from && to <= 120) byDistance.set(d, [...(byDistance.get(d) ?? []), [from, to]]);
    expect([...byDistance.keys()].sort()).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    for (const [d, pairs] of byDistance)
      for (const [from, to] of pairs.slice(0, 6)) {
        const res = await find({ from: { id: { accountId: from } }, to: { id: { accountId: to } }, maxPaths: 50 }).expect(200);
        expect(res.body.found).toBe(d <= 6);
        expect(idsOf(res.body)).toEqual(referencePaths(from, to, 50));
      }
    // The same searches over PostgreSQL (what serves while the graph loads) find the same paths.
    const stored = ctx.app.get(FriendGraphService).neighbours;
    const memory = await ctx.app.get(FriendGraphCache).reader();
    for (const [, pairs] of byDistance)
      for (const [from, to] of pairs.slice(0, 20)) {
        const bounds = { exclude: new Set<number>(), maxDepth: 6, maxEdges: 100_000, maxPaths: 10 };
        const [a, b] = await Promise.all([findFriendPaths(from, to, bounds, stored), findFriendPaths(from, to, bounds, memory)]);
        expect(a.paths).toEqual(b.paths);
        expect(a.paths).toEqual(referencePaths(from, to, 10));
      }
  });

  it('should list up to maxPaths of the shortest paths, each answer a prefix of a longer one', async () => {
    // The pair with the most shortest paths among the tracked accounts.
    let best = { from: 0, to: 0, count: 0 };
    for (const from of [...edges.keys()].filter((id) => id <= 120).slice(0, 30)) {
      const reach = distances(from);
      const count = new Map([[from, 1]]);
      for (const [id] of [...reach].sort((x, y) => x[1] - y[1]))
        if (id !== from)
          count.set(
            id,
            [...edges.get(id)!].filter((n) => reach.get(n) === reach.get(id)! - 1).reduce((sum, n) => sum + count.get(n)!, 0),
          );
      for (const [to, paths] of count) if (to <= 120 && paths > best.count && reach.get(to)! >= 2) best = { from, to, count: paths };
    }
    expect(best.count).toBeGreaterThan(3);
    const all = idsOf(
      (await find({ from: { id: { accountId: best.from } }, to: { id: { accountId: best.to } }, maxPaths: 50 }).expect(200)).body,
    );
    expect(all).toHaveLength(Math.min(50, best.count));
    expect(new Set(all.map((p) => p.join('>'))).size).toBe(all.length);
    for (const maxPaths of [1, 2, 3]) {
      const res = await find({ from: { id: { accountId: best.from } }, to: { id: { accountId: best.to } }, maxPaths }).expect(200);
      expect(idsOf(res.body)).toEqual(all.slice(0, maxPaths));
    }
    const fallback = await find({ from: { id: { accountId: best.from } }, to: { id: { accountId: best.to } } }).expect(200);
    expect(idsOf(fallback.body)).toEqual(all.slice(0, 10));
  });

  it('should reach accounts whose friend list is private through their friends, and pass through them', async () => {
    const [{ account_id: hidden }] = await ctx.dataSource.query(
      `SELECT a.account_id FROM accounts a WHERE a.friend_privacy = 'private' AND a.account_id <= 120
          AND (SELECT count(*) FROM account_friends f WHERE f.friend_account_id = a.account_id) >= 2
        ORDER BY a.account_id LIMIT 1`,
    );
    expect(await ctx.dataSource.query('SELECT 1 FROM account_friends WHERE account_id = $1', [hidden])).toHaveLength(0);
    const [a, b] = [...edges.get(hidden)!].sort((x, y) => x - y);
    const direct = await find({ from: { id: { accountId: a } }, to: { id: { accountId: hidden } } }).expect(200);
    expect(idsOf(direct.body)).toEqual([[a, hidden]]);
    const through = await find({ from: { id: { accountId: a } }, to: { id: { accountId: b } }, maxPaths: 50 }).expect(200);
    expect(idsOf(through.body)).toEqual(referencePaths(a, b, 50));
    if (!edges.get(a)!.has(b)) expect(idsOf(through.body)).toContainEqual([a, hidden, b]);
    const around = await find({
      from: { id: { accountId: a } },
      to: { id: { accountId: b } },
      exclude: [{ id: { steamId64: steamIdOf(hidden) } }],
      maxPaths: 50,
    }).expect(200);
    expect(idsOf(around.body)).toEqual(referencePaths(a, b, 50, new Set([hidden])));
    expect(idsOf(around.body).some((path) => path.includes(hidden))).toBe(false);
  });

  it('should follow friendships an update changes, and find nothing beyond six hops', async () => {
    // Two tracked accounts at least three hops apart become friends, then stop being friends.
    const from = [...edges.keys()].filter((id) => id <= 120)[0];
    const [to, before] = [...distances(from)].find(([id, d]) => d >= 3 && id <= 120)!;
    const own: number[] = (await ctx.dataSource.query('SELECT friend_account_id FROM account_friends WHERE account_id = $1', [from])).map(
      (row: { friend_account_id: number }) => row.friend_account_id,
    );
    const ask = (a: number, b: number) => find({ from: { id: { accountId: a } }, to: { id: { accountId: b } } }).expect(200);
    await storeFriends(from, [...own, to]);
    expect(idsOf((await ask(from, to)).body)).toEqual([[from, to]]);
    expect(idsOf((await ask(to, from)).body)).toEqual([[to, from]]);
    await storeFriends(from, own);
    expect((await ask(from, to)).body.paths[0].distance).toBe(before);

    // A chain of new accounts 1001 … 1008 (seven hops end to end), hanging off `from`.
    for (let id = 1001; id <= 1008; id++) await ctx.app.get(AccountAdminService).ensureAccount(id);
    for (let id = 1001; id < 1008; id++) await storeFriends(id, [id + 1]);
    expect(idsOf((await ask(1001, 1007)).body)).toEqual([[1001, 1002, 1003, 1004, 1005, 1006, 1007]]);
    expect((await ask(1001, 1008)).body).toMatchObject({ found: false, paths: [] });
    await storeFriends(1008, [from]);
    const joined = (await ask(1005, from)).body;
    expect(idsOf(joined)).toEqual([[1005, 1006, 1007, 1008, from]]);
  });

  it('should apply the changes nudged before a search, reading nothing of the tables for the search itself', async () => {
    await untilLoaded();
    const [a, b] = [1101, 1102];
    for (const id of [a, b]) await ctx.app.get(AccountAdminService).ensureAccount(id);
    await storeFriends(a, [b]);
    await ctx.app.get(ChangeFeedFollower).settled();
    const query = jest.spyOn(ctx.dataSource, 'query');
    try {
      const res = await find({ from: { id: { accountId: a } }, to: { id: { accountId: b } } }).expect(200);
      expect(idsOf(res.body)).toEqual([[a, b]]);
      expect(query.mock.calls.filter(([sql]) => sql.includes('account_friends'))).toEqual([]);
    } finally {
      query.mockRestore();
    }
  });

  it('should record each run the worker commits in the change feed, in its transaction', async () => {
    const account = 7;
    await ctx.dataSource.query('UPDATE accounts SET next_allowed_time = now() WHERE account_id = $1', [account]);
    await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId: account } })
      .expect(204);
    await ctx.waitForCompletion(account, key, 30_000);
    const [run]: { run_id: string }[] = await ctx.dataSource.query(
      `SELECT run_id FROM account_updates WHERE account_id = $1 AND status = 'completed' ORDER BY finished_at DESC LIMIT 1`,
      [account],
    );
    const entries = await ctx.dataSource.query(`SELECT account_ids FROM change_feed WHERE kind = 'update-run' AND payload->>'runId' = $1`, [
      run.run_id,
    ]);
    expect(entries).toEqual([{ account_ids: [account] }]);
  });

  it('should follow a change whose nudge was lost within a poll, from its position (no reload)', async () => {
    await untilLoaded();
    const follower = ctx.app.get(ChangeFeedFollower);
    const loads = follower.stateOf('friend-graph')!.loads;
    const [a, b] = [1201, 1202];
    for (const id of [a, b]) await ctx.app.get(AccountAdminService).ensureAccount(id);
    // Two subscribers of the nudges: the API's follower and the worker's durable consumer (the watches).
    expect(await killSubscribers(ctx.app.get<Redis>(REDIS), nudgeChannel(ctx.config))).toBe(2);
    await storeFriends(a, [b], false);
    const deadline = Date.now() + 2_500;
    let found = false;
    while (!found && Date.now() < deadline) {
      found = (await find({ from: { id: { accountId: a } }, to: { id: { accountId: b } } }).expect(200)).body.found;
      if (!found) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(found).toBe(true);
    expect(follower.stateOf('friend-graph')!.loads).toBe(loads);
    await storeFriends(a, []);
    expect((await find({ from: { id: { accountId: a } }, to: { id: { accountId: b } } }).expect(200)).body.found).toBe(false);
  });

  it('should answer 404 for an untracked account and 422 for a bad selector', async () => {
    await find({ from: { id: { accountId: 2 } }, to: { id: { accountId: 999_999 } } }).expect(404);
    await find({ from: { id: { accountId: 2 } } }).expect(422);
    await find({ from: { id: { accountId: 2 } }, to: { id: { accountId: 3 } }, maxPaths: 51 }).expect(422);
  });
});
