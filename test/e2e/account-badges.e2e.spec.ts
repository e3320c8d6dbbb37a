import { toAppBadge } from '../../src/apps/mappers/app-badge.mapper';
import { BadgeCatalogService } from '../../src/badges/badge-catalog.service';
import { startPipeline, PipelineContext } from '../support/pipeline';

interface Badge {
  badgeId: string;
  appId: number;
  isFoil: boolean;
  scarcity: number;
  name: string;
  accountInfo: { level: number; xp: number; completionTime: string };
}

describe('account.listBadges and account.getBadgeHeatmap', () => {
  let ctx: PipelineContext;
  let key: string;
  let accountId: number;
  const list = (body: Record<string, unknown>) =>
    ctx
      .http()
      .post('/v1/account.listBadges')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId }, ...body });

  beforeAll(async () => {
    ctx = await startPipeline('listbadges');
    key = await ctx.apiKey(1);
    await ctx.startWorker();
    // The account of the simulator with the most badges among the first hundred: enough for two pages.
    const tick = ctx.simulator.universe.tickAt(ctx.clock.now);
    accountId = 2;
    for (let id = 2; id < 100; id++) {
      if (ctx.simulator.universe.badges(id, tick).badges.length > ctx.simulator.universe.badges(accountId, tick).badges.length)
        accountId = id;
    }
    await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    await ctx.waitForCompletion(accountId, key);
  });
  afterAll(() => ctx.close());

  it('should page through every badge of the account, ordered by xp by default', async () => {
    const first = await list({}).expect(200);
    const [{ total }] = await ctx.dataSource.query('SELECT count(*)::int AS total FROM account_badges WHERE account_id = $1', [accountId]);
    expect(total).toBeGreaterThan(50);
    expect(first.body).toMatchObject({ totalHits: total, pages: Math.ceil(total / 50) });
    expect(first.body.badges).toHaveLength(50);
    const second = await list({ page: 2 }).expect(200);
    const all: Badge[] = [...first.body.badges, ...second.body.badges];
    expect(new Set(all.map((b) => b.badgeId)).size).toBe(all.length);
    const xps = all.map((b) => b.accountInfo.xp);
    expect(xps).toEqual([...xps].sort((a, b) => b - a));
  });

  it('should filter by foil, level range and app, and order ascending by level', async () => {
    const foil = await list({ filters: { isFoil: true } }).expect(200);
    expect(foil.body.badges.every((b: Badge) => b.isFoil)).toBe(true);
    const legacy = await list({ filter: ['foil'] }).expect(200);
    expect(legacy.body.totalHits).toBe(foil.body.totalHits);
    const ranged = await list({ filters: { level: { min: 2, max: 3 } }, order: { by: 'level', direction: 'asc' } }).expect(200);
    const levels = ranged.body.badges.map((b: Badge) => b.accountInfo.level);
    expect(levels.every((l: number) => l >= 2 && l <= 3)).toBe(true);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const appId = ranged.body.badges[0]?.appId ?? foil.body.badges[0].appId;
    const byApp = await list({ filters: { appIds: [appId] } }).expect(200);
    expect(byApp.body.badges.every((b: Badge) => b.appId === appId)).toBe(true);
    const searched = await list({ search: byApp.body.badges[0].name.slice(0, 4) }).expect(200);
    expect(searched.body.totalHits).toBeGreaterThanOrEqual(1);
  });

  it('should reject bad paging and filters with 422 and their locations', async () => {
    const res = await list({ page: 0, order: { by: 'nope' }, filters: { level: { min: 'x' } } }).expect(422);
    expect(res.body.errors.map((e: { location: string }) => e.location).sort()).toEqual([
      'body.filters.level.min',
      'body.order.by',
      'body.page',
    ]);
  });

  it('should list the caller’s own badges and highest crafted levels', async () => {
    const own = await ctx.apiKey(accountId);
    const [{ total }] = await ctx.dataSource.query('SELECT count(*)::int AS total FROM account_badges WHERE account_id = $1', [accountId]);
    const owned = await ctx.http().post('/v1/account.listOwnedBadges').set('Authorization', `Bearer ${own}`).expect(200);
    expect(owned.body.ownedBadges).toHaveLength(total);
    expect(owned.body.ownedBadges[0]).toEqual({
      appId: expect.any(Number),
      badgeId: expect.stringMatching(/^bdg_/),
      isFoil: expect.any(Boolean),
      level: expect.any(Number),
      steamId: expect.any(Number),
    });
    const crafted = await ctx.http().post('/v1/account.listCraftedLevels').set('Authorization', `Bearer ${own}`).expect(200);
    const foils = owned.body.ownedBadges
      .filter((b: { isFoil: boolean; appId: number }) => b.isFoil && b.appId > 0)
      .map((b: { appId: number }) => b.appId);
    expect(crafted.body.foil.sort()).toEqual(foils.sort());
    expect(crafted.body.badgesUpdatedAt).not.toBeNull();
    expect(crafted.body.normal.every((n: { appId: number; level: number }) => n.level >= 1 && n.level <= 5)).toBe(true);
    // The owner of key 1 was never refreshed: it has no badges, but it is tracked.
    const empty = await ctx.http().post('/v1/account.listOwnedBadges').set('Authorization', `Bearer ${key}`).expect(200);
    expect(empty.body.ownedBadges).toEqual([]);
  });

  it('should serve the chart data points', async () => {
    const res = await ctx
      .http()
      .post('/v1/account.getDataPoints')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId } })
      .expect(200);
    const xps = res.body.mostXp.map((b: Badge) => b.accountInfo.xp);
    expect(xps).toHaveLength(10);
    expect(xps).toEqual([...xps].sort((a, b) => b - a));
    const scarcities = res.body.scarcity.map((b: Badge) => b.scarcity);
    expect(scarcities).toEqual([...scarcities].sort((a, b) => a - b));
    expect(res.body.playtime.length).toBeGreaterThan(0);
    expect(res.body.playtime[0]).toEqual({
      appId: expect.any(Number),
      name: expect.any(String),
      image: expect.any(String),
      playtime: expect.any(Number),
    });
    const [{ xp }] = await ctx.dataSource.query('SELECT sum(xp)::int AS xp FROM account_badges WHERE account_id = $1', [accountId]);
    const total = Object.values(res.body.xp as Record<string, Record<string, number>>)
      .flatMap((months) => Object.values(months))
      .reduce((a, b) => a + b, 0);
    expect(total).toBe(xp);
  });

  it('should rank the searches typed into badge listings', async () => {
    await list({ search: 'Alpha' }).expect(200);
    await list({ search: 'alpha ' }).expect(200);
    await list({ search: 'Beta' }).expect(200);
    const other = await ctx.apiKey(accountId);
    await ctx
      .http()
      .post('/v1/account.listBadges')
      .set('Authorization', `Bearer ${other}`)
      .send({ id: { accountId }, search: 'beta' })
      .expect(200);
    const res = await ctx.http().post('/v1/search.getTrending').send({ source: 'badge', window: '24h' }).expect(200);
    expect(res.body.searches.slice(0, 2)).toEqual([
      { query: 'Beta', uniqueSearchers: 2, totalSearches: 2 },
      { query: 'Alpha', uniqueSearchers: 1, totalSearches: 2 },
    ]);
    const apps = await ctx.http().post('/v1/search.getTrending').send({ source: 'app', window: '7d' }).expect(200);
    expect(apps.body.searches).toEqual([]);
  });

  it('should answer 404 for an account not stored, by id or steamId64, and count no search for it', async () => {
    const unknown = { id: { accountId: 99_999 }, search: 'Gamma' };
    const send = (body: Record<string, unknown>) =>
      ctx.http().post('/v1/account.listBadges').set('Authorization', `Bearer ${key}`).send(body);
    expect((await send(unknown).expect(404)).body.detail).toMatch(/not tracked/);
    await send({ id: { steamId64: String(76561197960265728n + 99_999n) }, search: 'Gamma' }).expect(404);
    // A stored account whose filter leaves no badge is an empty page, not a 404.
    const empty = await list({ filters: { appIds: [999_999_999] } }).expect(200);
    expect(empty.body).toMatchObject({ badges: [], pages: 0, totalHits: 0 });
    const res = await ctx.http().post('/v1/search.getTrending').send({ source: 'badge', window: '24h' }).expect(200);
    expect(res.body.searches.map((s: { query: string }) => s.query)).not.toContain('Gamma');
  });

  it('should count badges per month in the heatmap, as a bare map', async () => {
    const res = await ctx
      .http()
      .post('/v1/account.getBadgeHeatmap')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId } })
      .expect(200);
    expect(res.body.$schema).toBeUndefined();
    const months = Object.keys(res.body);
    expect(months.every((m) => /^\d{4}-\d{2}$/.test(m))).toBe(true);
    const [{ total }] = await ctx.dataSource.query('SELECT count(*)::int AS total FROM account_badges WHERE account_id = $1', [accountId]);
    expect(Object.values(res.body as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('should write every badge as toAppBadge and JSON.stringify write it, byte for byte', async () => {
    // The page is JSON text written by PostgreSQL (app-badge-text.ts). Odd cases first: an app name needing every kind
    // of escape, an app without a name (derived badge names), a priced set, a badge without holder statistics.
    const held: { badgeId: number; appId: number | null }[] = await ctx.dataSource.query(
      `SELECT ab.badge_id AS "badgeId", b.app_id AS "appId" FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
        WHERE ab.account_id = $1 ORDER BY ab.badge_id`,
      [accountId],
    );
    const appIds = [...new Set(held.map((h) => h.appId).filter((id): id is number => id !== null))];
    expect(appIds.length).toBeGreaterThanOrEqual(3);
    expect(held.some((h) => h.appId === null)).toBe(true);
    const oddName = 'Quote " back\\ slash / tab\t nl\n cr\r ctl\u0001\u001f del\u007f é 😀 \u2028\u2029 <>&';
    await ctx.dataSource.query('UPDATE apps SET name = $2, icon = $3 WHERE app_id = $1', [
      appIds[0],
      oddName,
      'https://cdn.example/“icon”.jpg',
    ]);
    await ctx.dataSource.query(`UPDATE apps SET name = '' WHERE app_id = $1`, [appIds[1]]);
    await ctx.dataSource.query(`UPDATE badges SET name = '' WHERE app_id = ANY($1) OR app_id IS NULL`, [[appIds[0], appIds[1]]]);
    await ctx.dataSource.query(
      `INSERT INTO app_market_prices (app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume,
         card_average_price, set_price, buy_order_average_price, set_buy_order_price, updated_at)
       VALUES ($1, 'normal', 6, 1, 2, 40, 12, 72, 9, 54, now()) ON CONFLICT DO NOTHING`,
      [appIds[2]],
    );
    await ctx.dataSource.query('DELETE FROM badge_holder_stats WHERE badge_id = $1', [held[0].badgeId]);

    const catalog = ctx.app.get(BadgeCatalogService);
    const statistics = new Map((await catalog.byIds(held.map((h) => h.badgeId))).map((b) => [b.id, b]));
    const holdings: { badgeId: number; level: number; xp: number; completionTime: Date }[] = await ctx.dataSource.query(
      `SELECT badge_id AS "badgeId", level, xp, completion_time AS "completionTime" FROM account_badges
        WHERE account_id = $1 ORDER BY xp DESC, badge_id DESC`,
      [accountId],
    );
    const expected = holdings.map((h) =>
      toAppBadge(statistics.get(h.badgeId)!, { completionTime: h.completionTime.toISOString(), level: h.level, xp: h.xp }),
    );
    const pages = Math.ceil(expected.length / 50);
    for (let page = 1; page <= pages; page++) {
      const res = await list({ page }).expect(200);
      const badges = expected.slice((page - 1) * 50, page * 50);
      expect(res.text).toBe(JSON.stringify({ $schema: res.body.$schema, badges, pages, totalHits: expected.length }));
    }
    const names = expected.map((b) => b.name);
    expect(names).toContain(`${oddName} Badge`);
    expect(names.some((n) => n === `App ${appIds[1]} Badge` || n === `App ${appIds[1]} Foil Badge`)).toBe(true);
    expect(names.some((n) => n.startsWith('Community badge #'))).toBe(true);
    expect(expected.some((b) => b.price === 72 && b.noListing && b.isNmc)).toBe(true);
    expect(expected.some((b) => b.trackedHolders === 0 && b.firstCompletion === null)).toBe(true);
  });
});
