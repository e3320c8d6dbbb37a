import Redis from 'ioredis';
import { CallBudget } from 'src/platform/client/call-budget';
import { PlatformClient } from 'src/platform/client/platform-client';
import { PlatformSimulator } from 'src/platform/simulator';
import { REDIS_URL } from '../../support/stores';

/** The client against the simulator over real HTTP: every result must equal the universe's truth. */

const T0 = Date.UTC(2025, 8, 1);
const N = 2000;

describe('PlatformClient against the simulator', () => {
  let now = T0;
  const sim = new PlatformSimulator({ seed: 11, accounts: N, clock: () => now, apiKey: 'client-test-key' });
  const u = sim.universe;
  const redis = new Redis(REDIS_URL);
  const prefix = `test:platform-client:${process.pid}:${Date.now()}:`;
  let client: PlatformClient;
  let budget: CallBudget;
  const tick = (): number => u.tickAt(now);
  const sid = (id: number): string => u.steamIdOf(id);
  const ids = Array.from({ length: N }, (_, i) => i + 1);

  beforeAll(async () => {
    const base = `http://127.0.0.1:${await sim.listen(0)}`;
    budget = new CallBudget(redis, 1_000_000, prefix);
    client = new PlatformClient({
      apiUrl: base,
      communityUrl: base,
      apiKey: 'client-test-key',
      timeoutMs: 5000,
      maxRetries: 2,
      retryBaseMs: 10,
      budget,
    });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await sim.close();
  });
  afterEach(() => {
    now = T0;
  });

  it('should fetch summaries in batches of 100, skipping unknown ids', async () => {
    const wanted = [...ids.slice(0, 250).map(sid), sid(N + 1), sid(N + 2)];
    const before = await budget.used();
    const summaries = await client.getPlayerSummaries(wanted);
    expect(await budget.used()).toBe(before + 3);
    expect(summaries).toEqual(ids.slice(0, 250).map((id) => u.summary(id, tick())));
  });

  it('should read a badge’s name, image and level from a holder’s badge page, nothing from others', async () => {
    let read = 0;
    let withDrops = 0;
    /** The drops a game's normal page shows: the universe's, null on a foil or special page. */
    const drops = (id: number, appId: number | undefined, foil: boolean) =>
      appId === undefined || foil ? null : u.cardDropsRemaining(id, appId, tick());
    for (const id of ids.slice(0, 300)) {
      const held = u.badges(id, tick()).badges;
      const badge = held.find((b) => b.appId !== undefined);
      const page = await client.getBadgePage(sid(id), badge ? { appId: badge.appId!, foil: badge.borderColor === 1 } : { badgeId: 5 });
      if (u.isPrivate(id)) {
        expect(page).toEqual({ visibility: 'private' });
        continue;
      }
      if (!badge) continue;
      const art = u.badgeArt({ appId: badge.appId!, badgeId: badge.badgeId, foil: badge.borderColor === 1 }, badge.level);
      expect(page).toEqual({
        visibility: 'public',
        held: { name: art.name, image: `${art.iconHash}.png`, level: badge.level },
        dropsRemaining: drops(id, badge.appId, badge.borderColor === 1),
      });
      read++;
      // A special badge it holds, from its own page; one it does not hold shows none.
      const special = held.find((b) => b.appId === undefined);
      if (special) {
        const specialArt = u.badgeArt({ appId: 0, badgeId: special.badgeId, foil: false }, special.level);
        expect(await client.getBadgePage(sid(id), { badgeId: special.badgeId })).toEqual({
          visibility: 'public',
          held: { name: specialArt.name, image: `${specialArt.iconHash}.png`, level: special.level },
          dropsRemaining: null,
        });
      }
      const missing = u.catalogue.apps.find((app) => !held.some((b) => b.appId === app.appId))!;
      expect(await client.getBadgePage(sid(id), { appId: missing.appId, foil: false })).toEqual({
        visibility: 'public',
        held: null,
        dropsRemaining: drops(id, missing.appId, false),
      });
      // The card drops of a game it owns, as its page says them.
      const game = u.ownedGames(id, tick()).find((g) => g.playtimeForever >= 60);
      if (game) {
        const page = await client.getBadgePage(sid(id), { appId: game.appId, foil: false });
        expect(page).toMatchObject({ visibility: 'public', dropsRemaining: u.cardDropsRemaining(id, game.appId, tick()) });
        if ((page as { dropsRemaining: number }).dropsRemaining > 0) withDrops++;
      }
    }
    expect(read).toBeGreaterThan(50);
    expect(withDrops).toBeGreaterThan(10);
    await expect(client.getBadgePage(sid(N + 1), { appId: u.catalogue.apps[0].appId, foil: false })).rejects.toMatchObject({ status: 404 });
  });

  it('should fetch bans in batches and map PascalCase keys', async () => {
    const bans = await client.getPlayerBans(ids.slice(0, 150).map(sid));
    expect(bans).toEqual(ids.slice(0, 150).map((id) => u.bans(id, tick())));
  });

  it('should resolve vanity names and return null on success 42', async () => {
    const id = ids.find((x) => u.vanityOf(x) !== null)!;
    expect(await client.resolveVanity(u.vanityOf(id)!)).toBe(sid(id));
    expect(await client.resolveVanity('definitelynotaname')).toBeNull();
    expect(await client.resolveVanity(`${u.vanityOf(id)!}9`)).toBeNull();
  });

  it('should map private profiles to visibility private', async () => {
    const id = ids.find((x) => u.isPrivate(x))!;
    expect(await client.getFriendList(sid(id))).toEqual({ visibility: 'private' });
    expect(await client.getInventory(sid(id))).toEqual({ visibility: 'private' });
    expect(await client.getOwnedGames(sid(id))).toEqual({ visibility: 'private' });
    expect(await client.getUserGroupList(sid(id))).toEqual({ visibility: 'private' });
    expect(await client.getBadges(sid(id))).toEqual(u.badges(id, tick()));
  });

  it('should return public friends, groups, badges, level and games equal to the truth', async () => {
    const id = ids.find((x) => !u.isPrivate(x) && u.friendIds(x, tick()).length > 3 && u.badges(x, tick()).badges.length > 3)!;
    expect(await client.getFriendList(sid(id))).toEqual({ visibility: 'public', friends: u.friends(id, tick()) });
    expect(await client.getUserGroupList(sid(id))).toEqual({ visibility: 'public', groups: u.groups(id) });
    expect(await client.getBadges(sid(id))).toEqual(u.badges(id, tick()));
    expect(await client.getSteamLevel(sid(id))).toBe(u.level(id, tick()));
    const truth = u.ownedGames(id, tick()).filter((g) => !g.free || g.playtimeForever > 0);
    const games = await client.getOwnedGames(sid(id), { includeAppInfo: true, includePlayedFreeGames: true });
    expect(games).toEqual({
      visibility: 'public',
      gameCount: truth.length,
      games: truth.map((g) => ({
        appId: g.appId,
        name: g.name,
        imgIconUrl: g.iconHash,
        playtimeForever: g.playtimeForever,
        rtimeLastPlayed: g.rtimeLastPlayed,
        ...(g.playtime2Weeks > 0 ? { playtime2Weeks: g.playtime2Weeks } : {}),
      })),
    });
    const filtered = await client.getOwnedGames(sid(id), { includeAppInfo: false, includePlayedFreeGames: true, appIds: [truth[0].appId] });
    expect(filtered).toMatchObject({ gameCount: 1, games: [{ appId: truth[0].appId }] });
    expect(await client.getCommunityBadgeProgress(sid(id))).toEqual(u.badgeProgress(id, 2));
  });

  it('should follow inventory pages to the end and equal the truth', async () => {
    const id = ids.find((x) => !u.isPrivate(x) && u.inventorySize(x) > 2500)!;
    const result = await client.getInventory(sid(id), 1000);
    expect(result.visibility).toBe('public');
    if (result.visibility !== 'public') return;
    expect(result.totalCount).toBe(u.inventorySize(id));
    expect(result.items).toEqual(u.inventory(id));
    expect(new Set(result.items.map((i) => i.assetId)).size).toBe(result.items.length);
    const card = result.items.find((i) => i.tags.some((t) => t.category === 'item_class' && t.internalName === 'item_class_2'))!;
    expect(card.marketHashName).toBe(`${card.marketFeeApp}-${card.name}`);
    expect(card.tags.map((t) => t.category)).toEqual(expect.arrayContaining(['cardborder', 'Game']));
    const empty = ids.find((x) => !u.isPrivate(x) && u.inventorySize(x) === 0)!;
    expect(await client.getInventory(sid(empty))).toEqual({ visibility: 'public', totalCount: 0, items: [] });
  });

  it('should parse market prices into cents and see them drift', async () => {
    const app = u.catalogue.apps[5];
    const name = `${app.appId}-${app.cards[1]}`;
    expect(await client.getMarketPrice(name)).toEqual(u.marketPrice(name, tick()));
    expect(await client.getMarketPrice(name, 3)).toEqual(u.marketPrice(name, tick(), 3));
    const seen = new Set<number | null>();
    for (let day = 0; day < 6; day++) {
      now = T0 + day * 86_400_000;
      seen.add((await client.getMarketPrice(name))!.lowestPrice);
    }
    expect(seen.size).toBeGreaterThan(1);
    expect(await client.getMarketPrice(`${app.appId}-Not A Card`)).toBeNull();
  });

  it('should resolve every location code of a summary through QueryLocations', async () => {
    const countries = await client.queryLocations();
    const located = ids
      .map((id) => u.summary(id, tick()))
      .filter((s) => s.locCityId !== undefined)
      .slice(0, 5);
    expect(located.length).toBeGreaterThan(0);
    for (const s of located) {
      expect(countries.map((c) => c.countryCode)).toContain(s.locCountryCode);
      const states = await client.queryLocations(s.locCountryCode!);
      expect(states.map((x) => x.stateCode)).toContain(s.locStateCode);
      const cities = await client.queryLocations(s.locCountryCode!, s.locStateCode!);
      expect(cities.map((c) => c.cityId)).toContain(s.locCityId);
    }
  });

  it('should see badges change after the clock moves', async () => {
    const later = T0 + 30_000 * 60_000;
    const id = ids.find((x) => u.badges(x, u.tickAt(later)).playerXp > u.badges(x, tick()).playerXp)!;
    const before = await client.getBadges(sid(id));
    now = later;
    const after = await client.getBadges(sid(id));
    expect(after.playerXp).toBeGreaterThan(before.playerXp);
    expect(after).toEqual(u.badges(id, u.tickAt(later)));
  });
});
