import { PlatformSimulator, Universe, levelForXp, xpForLevel } from 'src/platform/simulator';
import { route } from 'src/platform/simulator/handlers/router';

/** The simulator's own contract: determinism, universe invariants, time, and HTTP behaviour of the wire format. */

const T0 = Date.UTC(2025, 5, 1);
const N = 2000;

describe('platform simulator', () => {
  let now = T0;
  const clock = (): number => now;
  const a = new PlatformSimulator({ seed: 7, accounts: N, clock });
  const b = new PlatformSimulator({ seed: 7, accounts: N, clock });
  const other = new PlatformSimulator({ seed: 8, accounts: N, clock });
  const keyed = new PlatformSimulator({ seed: 7, accounts: 50, clock, apiKey: 'sim-key', latencyMs: 40 });
  const u = a.universe;
  let baseA = '';
  let baseB = '';
  let baseOther = '';
  let baseKeyed = '';

  beforeAll(async () => {
    baseA = `http://127.0.0.1:${await a.listen(0)}`;
    baseB = `http://127.0.0.1:${await b.listen(0)}`;
    baseOther = `http://127.0.0.1:${await other.listen(0)}`;
    baseKeyed = `http://127.0.0.1:${await keyed.listen(0)}`;
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close(), other.close(), keyed.close()]);
  });
  afterEach(() => {
    now = T0;
  });

  const get = async (base: string, path: string): Promise<{ status: number; body: string }> => {
    const res = await fetch(base + path);
    return { status: res.status, body: await res.text() };
  };
  const sid = (id: number): string => u.steamIdOf(id);

  it('should serve byte-identical bodies when two simulators share seed and time', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => sid(i + 1)).join(',');
    const paths = [
      `/ISteamUser/GetPlayerSummaries/v2/?steamids=${ids}`,
      `/ISteamUser/GetPlayerBans/v1/?steamids=${ids}`,
      ...[3, 17, 99].flatMap((id) => [
        `/IPlayerService/GetBadges/v1/?steamid=${sid(id)}`,
        `/IPlayerService/GetOwnedGames/v1/?steamid=${sid(id)}&include_appinfo=1`,
        `/ISteamUser/GetFriendList/v1/?steamid=${sid(id)}`,
        `/inventory/${sid(id)}/753/6?count=50`,
      ]),
    ];
    for (const path of paths) {
      const [x, y, z] = await Promise.all([get(baseA, path), get(baseB, path), get(baseOther, path)]);
      expect(y).toEqual(x);
      if (x.status === 200 && path.includes('Summaries')) expect(z.body).not.toEqual(x.body);
    }
  });

  it("should hand in-process callers a JSON answer's value equal to its parsed body", () => {
    // The seed reads `value` instead of parsing `body` (src/seed/in-process-platform.ts): any field that JSON drops
    // or changes (undefined, a Date, NaN) would make it store what the worker never would.
    const tick = u.tickAt(T0 + 90 * 86_400_000);
    const ids = Array.from({ length: 200 }, (_, i) => i + 1);
    const paths = [
      `/ISteamUser/GetPlayerSummaries/v2/?steamids=${ids.map(sid).join(',')}`,
      `/ISteamUser/GetPlayerBans/v1/?steamids=${ids.map(sid).join(',')}`,
      '/actions/QueryLocations',
      ...ids.flatMap((id) => [
        `/IPlayerService/GetBadges/v1/?steamid=${sid(id)}`,
        `/IPlayerService/GetOwnedGames/v1/?steamid=${sid(id)}&include_appinfo=1&include_played_free_games=1`,
        `/ISteamUser/GetFriendList/v1/?steamid=${sid(id)}&relationship=friend`,
        `/ISteamUser/GetUserGroupList/v1/?steamid=${sid(id)}`,
        `/inventory/${sid(id)}/753/6?l=english&count=5000`,
      ]),
    ];
    const differing = paths.filter((path) => {
      const response = route(u, tick, null, 'GET', `http://simulator.in-process${path}`);
      if (response.value === undefined) return false;
      try {
        expect(response.value).toStrictEqual(JSON.parse(response.body));
        return false;
      } catch {
        return true;
      }
    });
    expect(differing).toEqual([]);
  });

  it('should fold an inventory for the seed exactly as folding its listed assets does', () => {
    // The seed maps Universe.inventoryFolded instead of folding every listed asset (src/seed/in-process-platform.ts).
    const differing = Array.from({ length: N }, (_, i) => i + 1).filter((id) => {
      if (u.isPrivate(id)) return false;
      const byClass = new Map<string, { asset: unknown; amount: number }>();
      for (const asset of u.inventoryAssets(id)) {
        const entry = byClass.get(asset.classid);
        if (entry) entry.amount += Number(asset.amount);
        else byClass.set(asset.classid, { asset, amount: Number(asset.amount) });
      }
      return JSON.stringify([...byClass.values()]) !== JSON.stringify(u.inventoryFolded(id));
    });
    expect(differing).toEqual([]);
  });

  // The invariant sweeps below collect violations and assert once: per-item expect() calls would dominate runtime.

  it('should give accounts valid, unique, resolvable vanity names for about 70% of accounts', () => {
    const seen = new Set<string>();
    const bad: unknown[] = [];
    for (let id = 1; id <= N; id++) {
      const p = u.account(id);
      if (p.vanity === null) {
        if (p.profileUrl !== `https://steamcommunity.com/profiles/${p.steamId}/`) bad.push(p);
        continue;
      }
      if (!/^[a-zA-Z0-9]{2,}$/.test(p.vanity) || seen.has(p.vanity)) bad.push(p);
      if (p.profileUrl !== `https://steamcommunity.com/id/${p.vanity}/`) bad.push(p);
      if (u.resolveVanity(p.vanity) !== id || u.resolveVanity(p.vanity.toUpperCase()) !== id) bad.push(p);
      seen.add(p.vanity);
    }
    expect(bad).toEqual([]);
    expect(seen.size / N).toBeGreaterThan(0.6);
    expect(seen.size / N).toBeLessThan(0.8);
    expect(u.resolveVanity('nosuchname')).toBeNull();
  });

  it('should keep player xp, level and the level rule consistent for every account', () => {
    expect([xpForLevel(1), xpForLevel(10), xpForLevel(11), xpForLevel(20), xpForLevel(21)]).toEqual([100, 1000, 1200, 3000, 3300]);
    expect(levelForXp(999)).toBe(9);
    expect(levelForXp(1000)).toBe(10);
    const tick = u.tickAt(T0);
    const bad: unknown[] = [];
    for (let id = 1; id <= N; id++) {
      const b = u.badges(id, tick);
      if (
        b.playerXp !== b.badges.reduce((s, x) => s + x.xp, 0) ||
        b.playerLevel !== levelForXp(b.playerXp) ||
        b.playerXpNeededCurrentLevel !== xpForLevel(b.playerLevel) ||
        b.playerXpNeededToLevelUp !== xpForLevel(b.playerLevel + 1) - b.playerXp
      )
        bad.push({ id, b });
      for (const x of b.badges) {
        const ok =
          x.appId === undefined
            ? x.badgeId >= 1 && x.badgeId <= 64 && x.borderColor === undefined
            : x.borderColor === 1
              ? x.level === 1 && x.xp === 100
              : x.borderColor === 0 && x.level >= 1 && x.level <= 5 && x.xp === 100 * x.level && !!u.app(x.appId);
        if (!ok) bad.push({ id, x });
      }
    }
    expect(bad).toEqual([]);
  });

  it('should keep the friend graph symmetric with heavy-tailed degrees', () => {
    const tick = u.tickAt(T0);
    const since = new Map<string, number>();
    const degrees: number[] = [];
    const bad: unknown[] = [];
    const lists = new Map<number, Set<number>>();
    for (let id = 1; id <= N; id++) lists.set(id, new Set(u.friendIds(id, tick)));
    for (let id = 1; id <= N; id++) {
      const friends = u.friends(id, tick);
      degrees.push(friends.length);
      for (const f of friends) {
        const other = u.accountIdOf(f.steamId)!;
        if (other === id || !lists.get(other)!.has(id)) bad.push({ id, other });
        const key = `${Math.min(id, other)}-${Math.max(id, other)}`;
        if (since.has(key) && since.get(key) !== f.friendSince) bad.push({ key });
        since.set(key, f.friendSince);
      }
    }
    expect(bad).toEqual([]);
    degrees.sort((x, y) => y - x);
    expect(degrees[0]).toBeGreaterThanOrEqual(100);
    expect(degrees[Math.floor(N / 2)]).toBeLessThanOrEqual(10);
  });

  it('should move time: later ticks bring new badge levels, xp, playtime and friendships', () => {
    const t0 = u.tickAt(T0);
    const t1 = t0 + 7 * 1440;
    let badgeChanges = 0;
    let playtimeChanges = 0;
    let friendChanges = 0;
    const bad: number[] = [];
    const playtime = (id: number, t: number): number => u.ownedGames(id, t).reduce((s, g) => s + g.playtimeForever, 0);
    for (let id = 1; id <= N; id++) {
      const before = u.badges(id, t0).playerXp;
      const after = u.badges(id, t1).playerXp;
      if (after < before) bad.push(id);
      if (after > before) badgeChanges++;
      if (playtime(id, t1) > playtime(id, t0)) playtimeChanges++;
      const f0 = u.friendIds(id, t0).length;
      const f2 = u.friendIds(id, t0 + 200_000).length;
      if (f2 < f0) bad.push(id);
      if (f2 > f0) friendChanges++;
    }
    expect(bad).toEqual([]);
    expect(badgeChanges).toBeGreaterThan(10);
    expect(playtimeChanges).toBeGreaterThan(10);
    expect(friendChanges).toBeGreaterThan(10);
  });

  it('should reflect the injected clock over HTTP', async () => {
    const t0 = u.tickAt(T0);
    const id = Array.from({ length: N }, (_, i) => i + 1).find((x) => u.badges(x, t0 + 20_000).playerXp > u.badges(x, t0).playerXp)!;
    const path = `/IPlayerService/GetBadges/v1/?steamid=${sid(id)}`;
    const before = JSON.parse((await get(baseA, path)).body);
    now = T0 + 20_000 * 60_000;
    const after = JSON.parse((await get(baseA, path)).body);
    expect(before.response.player_xp).toBe(u.badges(id, t0).playerXp);
    expect(after.response.player_xp).toBe(u.badges(id, t0 + 20_000).playerXp);
    expect(after.response.player_xp).toBeGreaterThan(before.response.player_xp);
  });

  it('should answer private profiles like the platform', async () => {
    const id = Array.from({ length: N }, (_, i) => i + 1).find((x) => u.isPrivate(x))!;
    expect(u.summary(id, 0).communityVisibilityState).toBe(1);
    expect((await get(baseA, `/ISteamUser/GetFriendList/v1/?steamid=${sid(id)}`)).status).toBe(401);
    expect(await get(baseA, `/inventory/${sid(id)}/753/6`)).toEqual({ status: 403, body: 'null' });
    expect(await get(baseA, `/IPlayerService/GetOwnedGames/v1/?steamid=${sid(id)}`)).toEqual({ status: 200, body: '{"response":{}}' });
    const badges = JSON.parse((await get(baseA, `/IPlayerService/GetBadges/v1/?steamid=${sid(id)}`)).body);
    expect(badges.response.player_level).toBe(u.level(id, u.tickAt(T0)));
  });

  it('should reject bad parameters with 400 and unknown paths with 404', async () => {
    const ids101 = Array.from({ length: 101 }, (_, i) => sid(i + 1)).join(',');
    expect((await get(baseA, '/ISteamUser/GetPlayerSummaries/v2/')).status).toBe(400);
    expect((await get(baseA, `/ISteamUser/GetPlayerSummaries/v2/?steamids=${ids101}`)).status).toBe(400);
    expect((await get(baseA, '/IPlayerService/GetBadges/v1/?steamid=abc')).status).toBe(400);
    expect((await get(baseA, `/inventory/${sid(1)}/753/6?count=5001`)).status).toBe(400);
    expect((await get(baseA, '/ISteamUser/ResolveVanityURL/v1/')).status).toBe(400);
    expect((await get(baseA, '/ISteamUser/NoSuchMethod/v1/')).status).toBe(404);
    expect((await get(baseA, '/nothing/here')).status).toBe(404);
    const unknown = JSON.parse((await get(baseA, `/ISteamUser/GetPlayerSummaries/v2/?steamids=${sid(N + 1)},${sid(1)}`)).body);
    expect(unknown.response.players.map((p: { steamid: string }) => p.steamid)).toEqual([sid(1)]);
  });

  it('should require the configured key on Web API calls only, and add latency', async () => {
    const path = `/IPlayerService/GetSteamLevel/v1/?steamid=${sid(1)}`;
    expect((await get(baseKeyed, path)).status).toBe(403);
    expect((await get(baseKeyed, `${path}&key=wrong`)).status).toBe(403);
    const started = Date.now();
    expect((await get(baseKeyed, `${path}&key=sim-key`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect((await get(baseKeyed, '/actions/QueryLocations')).status).toBe(200);
    expect((await get(baseA, `${path}&key=anything`)).status).toBe(200);
  });

  it('should drift market prices over time', () => {
    const universe = new Universe({ seed: 7, accounts: 10 });
    const app = universe.catalogue.apps[0];
    const name = `${app.appId}-${app.cards[0]}`;
    const prices = Array.from({ length: 20 }, (_, i) => universe.marketPrice(name, i * 720)!.lowestPrice);
    expect(new Set(prices).size).toBeGreaterThan(3);
    expect(universe.marketPrice(`${app.appId}-No Such Card`, 0)).toBeNull();
    expect(universe.marketPrice(`${app.appId}-${app.name} Booster Pack`, 0)).not.toBeNull();
  });
});
