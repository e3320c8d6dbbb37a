/**
 * account.getCraftingPlan against the real stack: an account refreshed from the simulator, card sets and per-card
 * quotes written in SQL (some sets held whole, some with missing cards, one card never listed), and every figure of the
 * plan compared with a recomputation in SQL from `card_market_prices`, `app_card_counts` and the inventory. The sets
 * and quotes are held in process (CardSetBook, CardQuoteBook) and follow the change feed: a price written later is
 * planned with within a poll, by a process that missed the nudge too.
 */
import Redis from 'ioredis';
import { nudgeChannel } from '../../src/change-feed/change-entry';
import { ChangeFeed } from '../../src/change-feed/change-feed';
import { ChangeFeedFollower } from '../../src/change-feed/change-feed-follower';
import { REDIS } from '../../src/common/redis/redis.module';
import { AppCardSets } from '../../src/pricing/app-card-sets.service';
import { AppPricer } from '../../src/pricing/app-pricer.service';
import { writeCatalogue } from '../support/catalogue';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { killSubscribers } from '../support/subscribers';

/** The plan recomputed in SQL, one row per badge the account can level. */
const RECOMPUTED = `
  WITH levels AS (
    SELECT b.app_id, b.is_foil, max(ab.level) AS level FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
     WHERE ab.account_id = $1 AND b.app_id IS NOT NULL GROUP BY 1, 2),
  apps AS (
    SELECT app_id FROM account_apps WHERE account_id = $1
    UNION SELECT app_id FROM inventory_items WHERE account_id = $1 AND app_id IS NOT NULL AND kind IN ('card', 'foil_card')
    UNION SELECT app_id FROM levels),
  types AS (SELECT * FROM (VALUES ('normal', false, 5), ('foil', true, 1)) t(badge_type, is_foil, max_level)),
  per_card AS (
    SELECT k.app_id, t.badge_type, t.max_level, COALESCE(l.level, 0) AS level,
           COALESCE((SELECT sum(i.amount) FROM inventory_items i
                      WHERE i.account_id = $1 AND i.market_hash_name = CASE WHEN t.is_foil THEN n.name || ' (Foil)' ELSE n.name END), 0)::int AS held,
           p.lowest_price, p.updated_at,
           COALESCE((SELECT max(b.base_xp) FROM badges b WHERE b.app_id = k.app_id AND b.is_foil = t.is_foil), 100) AS xp
      FROM apps JOIN app_card_counts k USING (app_id) CROSS JOIN types t CROSS JOIN LATERAL unnest(k.card_names) n(name)
      LEFT JOIN levels l ON l.app_id = k.app_id AND l.is_foil = t.is_foil
      LEFT JOIN card_market_prices p ON p.app_id = k.app_id AND p.badge_type = t.badge_type
            AND p.market_hash_name = CASE WHEN t.is_foil THEN n.name || ' (Foil)' ELSE n.name END)
  SELECT app_id AS "appId", badge_type AS "badgeType", min(level) AS level, min(xp) AS "xpPerLevel",
         LEAST(min(max_level - level), min(held))::int AS "levelsCraftableNow",
         count(*) FILTER (WHERE held = 0)::int AS "missingCards",
         CASE WHEN min(held) > 0 THEN 0
              WHEN bool_or(held = 0 AND lowest_price IS NULL) THEN NULL
              ELSE sum(lowest_price) FILTER (WHERE held = 0) END::int AS cost,
         CASE WHEN bool_or(held < max_level - level AND lowest_price IS NULL) THEN NULL
              ELSE COALESCE(sum(GREATEST(0, max_level - level - held) * lowest_price), 0) END::int AS "costToMaxLevel",
         (extract(epoch FROM min(updated_at)) * 1000)::bigint AS "pricesUpdatedAt"
    FROM per_card GROUP BY app_id, badge_type HAVING min(max_level - level) > 0
   ORDER BY 1, badge_type = 'foil'`;

interface Badge {
  appId: number;
  badgeType: 'normal' | 'foil';
  level: number;
  xpPerLevel: number;
  levelsCraftableNow: number;
  missingCards: number;
  cost: number | null;
  costToMaxLevel: number | null;
  costPerXp: number | null;
  pricesUpdatedAt: number | null;
  cards: { marketHashName: string; held: number; lowestPrice: number | null }[];
}

describe('account.getCraftingPlan', () => {
  let ctx: PipelineContext;
  let key: string;
  let accountId: number;
  /** The app whose set the account holds whole, its normal badge at level 3. */
  let wholeApp: number;
  const auth = () => ({ Authorization: `Bearer ${key}` });
  const plan = (body: Record<string, unknown>, status = 200) =>
    ctx.http().post('/v1/account.getCraftingPlan').set(auth()).send(body).expect(status);
  /** Every badge of the plan, through all its pages (of 7, so paging is exercised). */
  const allBadges = async (extra: Record<string, unknown> = {}): Promise<Badge[]> => {
    const badges: Badge[] = [];
    for (let page = 1; ; page++) {
      const res = await plan({ id: { accountId }, limit: 7, page, ...extra });
      badges.push(...(res.body.badges as Badge[]));
      if (page >= res.body.pages) return badges;
    }
  };

  beforeAll(async () => {
    // Market calls unpaced: the last test reads a set and its quotes as the pricing job does.
    ctx = await startPipeline('crafting', { env: { PLATFORM_MARKET_CALLS_PER_MINUTE: '600000' } });
    key = await ctx.apiKey(1);
    await ctx.startWorker();
    const universe = ctx.simulator.universe;
    const tick = universe.tickAt(ctx.clock.now);
    // A public account holding trading cards of at least two apps, with a library.
    const cardApps = (id: number) =>
      new Set(
        universe
          .inventory(id)
          .filter((item) => item.marketFeeApp !== undefined && item.tags.some((t) => t.internalName === 'item_class_2'))
          .map((item) => item.marketFeeApp),
      ).size;
    for (let id = 2; id < 2000 && !accountId; id++)
      if (!universe.isPrivate(id) && cardApps(id) >= 2 && universe.ownedGames(id, tick).length >= 3) accountId = id;
    expect(accountId).toBeDefined();
    await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } }).expect(204);
    await ctx.waitForCompletion(accountId, key);
    // The pricing job would read sets and quotes from the simulator's market: the test writes its own instead.
    await ctx.stopWorker();

    // Sets: the first app with cards is held whole (its set is the cards held), the others miss two cards, one of
    // which (the last app's) is never listed; three games of the library get sets of which nothing is held.
    const held: { app_id: number; names: string[] }[] = await ctx.dataSource.query(
      `SELECT app_id, array_agg(DISTINCT market_hash_name ORDER BY market_hash_name) AS names FROM inventory_items
        WHERE account_id = $1 AND app_id IS NOT NULL AND kind = 'card' GROUP BY app_id ORDER BY app_id`,
      [accountId],
    );
    expect(held.length).toBeGreaterThanOrEqual(2);
    const library: { app_id: number }[] = await ctx.dataSource.query(
      `SELECT app_id FROM account_apps WHERE account_id = $1 AND app_id <> ALL($2::int[]) ORDER BY app_id LIMIT 3`,
      [accountId, held.map((row) => row.app_id)],
    );
    const sets = new Map<number, string[]>();
    held.forEach((row, i) =>
      sets.set(row.app_id, i === 0 ? row.names : [...row.names, `${row.app_id}-Missing A`, `${row.app_id}-Missing B`]),
    );
    for (const { app_id } of library)
      sets.set(
        app_id,
        [1, 2, 3, 4, 5].map((n) => `${app_id}-Card ${n}`),
      );
    // The API's planner books loaded when it booted: the writes are recorded in the change feed as their writers
    // record them (every set and quote rewritten: entries naming no app, so the books read everything again).
    await writeCatalogue(ctx.app, { sets: true }, async (manager) => {
      await manager.query('UPDATE app_card_counts SET card_names = NULL, cards = 0');
      for (const [appId, names] of sets)
        await manager.query(
          `INSERT INTO app_card_counts (app_id, cards, card_names, cards_checked_at) VALUES ($1, $2, $3, now())
           ON CONFLICT (app_id) DO UPDATE SET cards = EXCLUDED.cards, card_names = EXCLUDED.card_names`,
          [appId, names.length, names],
        );
    });
    // Quotes: each card its own price (normal and foil), read at different times; one card never listed. Written in
    // SQL rather than by AppPricer.store, which gives every card of an app the same time.
    const lastApp = held[held.length - 1].app_id;
    wholeApp = held[0].app_id;
    await writeCatalogue(ctx.app, { prices: true }, async (manager) => {
      await manager.query('DELETE FROM card_market_prices');
      let n = 0;
      for (const [appId, names] of sets)
        for (const name of names)
          for (const type of ['normal', 'foil'] as const) {
            n++;
            const unlisted = appId === lastApp && name === `${appId}-Missing B` && type === 'normal';
            await manager.query(
              `INSERT INTO card_market_prices (app_id, badge_type, market_hash_name, lowest_price, buy_price, volume, updated_at)
               VALUES ($1, $2, $3, $4, $5, 3, date_trunc('milliseconds', now()) - make_interval(mins => $6))`,
              [appId, type, type === 'foil' ? `${name} (Foil)` : name, unlisted ? null : 3 + ((n * 37) % 200), unlisted ? null : 2, n % 50],
            );
          }
    });
    // A normal badge of the whole set at level 3: two levels left.
    await ctx.dataSource.query(
      `INSERT INTO badges (badge_key, app_id, platform_badge_id, is_foil) VALUES ($1, $2, 1, false) ON CONFLICT (badge_key) DO NOTHING`,
      [`app:${held[0].app_id}:normal`, held[0].app_id],
    );
    await ctx.dataSource.query(
      `INSERT INTO account_badges (account_id, badge_id, level, xp, completion_time)
       SELECT $1, id, 3, 300, now() FROM badges WHERE badge_key = $2
       ON CONFLICT (account_id, badge_id) DO UPDATE SET level = 3`,
      [accountId, `app:${held[0].app_id}:normal`],
    );
  });
  afterAll(() => ctx.close());

  it('should equal a recomputation in SQL from the card quotes and the inventory, badge by badge and in total', async () => {
    const expected: Omit<Badge, 'cards' | 'costPerXp'>[] = (await ctx.dataSource.query(RECOMPUTED, [accountId])).map(
      (row: Record<string, unknown>) => ({ ...row, pricesUpdatedAt: row.pricesUpdatedAt === null ? null : Number(row.pricesUpdatedAt) }),
    );
    const badges = await allBadges({ order: { by: 'appId' } });
    const badgeKey = (b: { appId: number; badgeType: string }) => `${b.appId}:${b.badgeType}`;
    expect(badges.map(badgeKey)).toEqual(expected.map(badgeKey));
    for (const [i, badge] of badges.entries()) {
      const { cards, costPerXp, ...figures } = badge;
      expect(figures).toMatchObject(expected[i]);
      expect(costPerXp).toBe(badge.cost === null ? null : badge.cost / badge.xpPerLevel);
      expect(cards.filter((card) => card.held === 0)).toHaveLength(badge.missingCards);
    }
    // The cases the data was built for all occur: a level craftable now, a cost, an unknown cost.
    expect(badges.some((b) => b.levelsCraftableNow > 0 && b.cost === 0)).toBe(true);
    expect(badges.some((b) => b.cost !== null && b.cost > 0)).toBe(true);
    expect(badges.some((b) => b.cost === null)).toBe(true);
    const whole = badges.find((b) => b.badgeType === 'normal' && b.appId === wholeApp)!;
    expect(whole.level).toBe(3);
    expect(whole.levelsCraftableNow).toBeGreaterThan(0);
    expect(whole.levelsCraftableNow).toBeLessThanOrEqual(2);

    const res = await plan({ id: { accountId } });
    const sum = (f: (b: (typeof expected)[number]) => number | null) => expected.reduce((s, b) => s + (f(b) ?? 0), 0);
    expect(res.body.totals).toEqual({
      badges: expected.length,
      levelsCraftableNow: sum((b) => b.levelsCraftableNow),
      xpCraftableNow: sum((b) => b.levelsCraftableNow * b.xpPerLevel),
      cost: sum((b) => b.cost),
      costToMaxLevel: sum((b) => b.costToMaxLevel),
      unpricedBadges: expected.filter((b) => b.cost === null || b.costToMaxLevel === null).length,
      unknownSets: 0,
    });
    const [{ oldest }] = await ctx.dataSource.query(
      `SELECT (extract(epoch FROM min(updated_at)) * 1000)::bigint AS oldest FROM card_market_prices`,
    );
    expect(res.body.pricesUpdatedAt).toBe(Number(oldest));
    expect(res.body.$schema).toContain('V1AccountGetCraftingPlanResponseBody');
  });

  it('should sort by cost per xp (unknown costs last) and by levels craftable', async () => {
    const byCost = await allBadges();
    const perXp = byCost.map((b) => b.costPerXp);
    const known = perXp.filter((v): v is number => v !== null);
    expect(perXp.slice(0, known.length)).toEqual([...known].sort((a, b) => a - b));
    expect(perXp.slice(known.length).every((v) => v === null)).toBe(true);
    const byLevels = await allBadges({ order: { by: 'levelsCraftable', direction: 'desc' } });
    const levels = byLevels.map((b) => b.levelsCraftableNow);
    expect(levels).toEqual([...levels].sort((a, b) => b - a));
    expect(byLevels).toHaveLength(byCost.length);
  });

  it('should filter by app, badge type, craftable now and cost', async () => {
    const all = await allBadges();
    const foil = await allBadges({ filters: { badgeType: 'foil' } });
    expect(foil.map((b) => b.appId).sort()).toEqual(
      all
        .filter((b) => b.badgeType === 'foil')
        .map((b) => b.appId)
        .sort(),
    );
    const craftable = await allBadges({ filters: { craftableNow: true } });
    expect(craftable.length).toBeGreaterThan(0);
    expect(craftable).toHaveLength(all.filter((b) => b.levelsCraftableNow > 0).length);
    const cheap = await allBadges({ filters: { maxCost: 150 } });
    expect(cheap).toHaveLength(all.filter((b) => b.cost !== null && b.cost <= 150).length);
    const one = await allBadges({ filters: { appId: all[0].appId } });
    expect(one.every((b) => b.appId === all[0].appId)).toBe(true);
    expect(one).toHaveLength(all.filter((b) => b.appId === all[0].appId).length);
    await plan({ id: { accountId }, order: { by: 'price' } }, 422);
    await plan({ id: { accountId }, limit: 101 }, 422);
  });

  it('should refuse a private inventory or profile and an account not refreshed, with problem details', async () => {
    await ctx.dataSource.query(`UPDATE accounts SET inventory_privacy = 'private' WHERE account_id = $1`, [accountId]);
    const inventory = await plan({ id: { accountId } }, 403);
    expect(inventory.headers['content-type']).toContain('application/problem+json');
    expect(inventory.body.detail).toContain('inventory');
    await ctx.dataSource.query(`UPDATE accounts SET inventory_privacy = 'public', privacy = 'private' WHERE account_id = $1`, [accountId]);
    expect((await plan({ id: { accountId } }, 403)).body.detail).toContain('profile');
    await ctx.dataSource.query(`UPDATE accounts SET privacy = 'public' WHERE account_id = $1`, [accountId]);
    const [{ fresh }] = await ctx.dataSource.query(
      `INSERT INTO accounts (account_id) VALUES ((SELECT max(account_id) + 1 FROM accounts)) RETURNING account_id AS fresh`,
    );
    expect((await plan({ id: { accountId: fresh } }, 409)).body.detail).toContain('queue an update');
    await plan({ id: { accountId: 2_000_000_000 } }, 404);
    await plan({ vanity: { type: 'steam', value: 'nobodyhasthisvanity' } }, 404);
  });

  it('should plan an account named by its vanity as by its id', async () => {
    await ctx.dataSource.query(`UPDATE accounts SET platform_vanity = 'planbyvanity' WHERE account_id = $1`, [accountId]);
    const byId = await plan({ id: { accountId }, limit: 100 });
    const byVanity = await plan({ vanity: { type: 'steam', value: 'PlanByVanity' }, limit: 100 });
    expect(byVanity.body).toEqual(byId.body);
    expect(byId.body.badges.length).toBeGreaterThan(0);
  });

  describe('following the change feed', () => {
    /** A missing card of a priced badge of the plan, with its price as planned. */
    const missingCard = async () => {
      const badge = (await allBadges({ order: { by: 'appId' } })).find((b) => b.cost !== null && b.missingCards > 0)!;
      const card = badge.cards.find((c) => c.held === 0)!;
      return { appId: badge.appId, badgeType: badge.badgeType, name: card.marketHashName, price: card.lowestPrice! };
    };
    const plannedPrice = async (card: { appId: number; badgeType: string; name: string }) => {
      const res = await plan({ id: { accountId }, filters: { appId: card.appId, badgeType: card.badgeType }, limit: 100 });
      return (res.body.badges as Badge[])[0].cards.find((c) => c.marketHashName === card.name)!.lowestPrice;
    };
    /** Waits (up to 10 s) until the plan prices the card at `price`; resolves with how long it took (ms). */
    const plannedWithin = async (card: { appId: number; badgeType: string; name: string }, price: number) => {
      const started = Date.now();
      while ((await plannedPrice(card)) !== price) {
        if (Date.now() - started > 10_000) throw new Error(`the plan does not price ${card.name} at ${price} within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return Date.now() - started;
    };
    /** The card's price written as another process (the pricing worker) writes it: row and entry in one transaction. */
    const priceElsewhere = (card: { appId: number; badgeType: string; name: string }, price: number) =>
      ctx.dataSource.transaction(async (manager) => {
        await manager.query(
          `UPDATE card_market_prices SET lowest_price = $4 WHERE app_id = $1 AND badge_type = $2 AND market_hash_name = $3`,
          [card.appId, card.badgeType, card.name, price],
        );
        await ctx.app.get(ChangeFeed).record(manager, { kind: 'card-prices', payload: { appIds: [card.appId] } });
      });

    it('should plan with a price written after the books loaded within a poll, its nudge lost, without reloading', async () => {
      const follower = ctx.app.get(ChangeFeedFollower);
      const loads = follower.stateOf('card-quotes')!.loads;
      const card = await missingCard();
      // The nudge the writer would publish is lost: only the follower's poll (once a second) finds the entry.
      expect(await killSubscribers(ctx.app.get<Redis>(REDIS), nudgeChannel(ctx.config))).toBe(1);
      await priceElsewhere(card, card.price + 1_000);
      expect(await plannedWithin(card, card.price + 1_000)).toBeLessThan(2_500);
      expect(follower.stateOf('card-quotes')!.loads).toBe(loads);
    });

    it('should catch up from its position when its follower was stopped, and follow a set renamed', async () => {
      const follower = ctx.app.get(ChangeFeedFollower);
      const loads = ['card-quotes', 'card-sets'].map((name) => follower.stateOf(name)!.loads);
      const card = await missingCard();
      await follower.stop();
      await priceElsewhere(card, card.price + 2_000);
      await writeCatalogue(ctx.app, { sets: true, appIds: [card.appId] }, (manager) =>
        manager.query(`UPDATE apps SET name = 'Renamed while deaf' WHERE app_id = $1`, [card.appId]),
      );
      // Deaf, it plans from the quotes it holds.
      expect(await plannedPrice(card)).toBe(card.price);
      follower.start();
      await plannedWithin(card, card.price + 2_000);
      const renamed = await plan({ id: { accountId }, filters: { appId: card.appId }, limit: 100 });
      expect((renamed.body.badges as { appName: string }[]).every((b) => b.appName === 'Renamed while deaf')).toBe(true);
      expect(['card-quotes', 'card-sets'].map((name) => follower.stateOf(name)!.loads)).toEqual(loads);
    });

    it('should plan with the set and quotes the worker’s own writers store (AppCardSets, AppPricer)', async () => {
      await ctx.startWorker();
      const worker = ctx.worker!;
      // The platform's set of the app, then its quotes, as the pricing job reads and stores them.
      const { hashNames } = await worker.get(AppCardSets).refresh(wholeApp);
      const pricer = worker.get(AppPricer);
      const names = await pricer.cardNames(wholeApp);
      expect(names).toEqual(hashNames);
      const quotes = await pricer.read(wholeApp, names);
      await pricer.store(wholeApp, quotes, new Date());
      const expected = names.map((name) => quotes.cards.find((c) => c.badgeType === 'normal' && c.marketHashName === name)!.lowestPrice);
      const planned = async () => {
        const res = await plan({ id: { accountId }, filters: { appId: wholeApp, badgeType: 'normal' } });
        return (res.body.badges as Badge[])[0].cards.map((card) => [card.marketHashName, card.lowestPrice]);
      };
      const started = Date.now();
      while (JSON.stringify(await planned()) !== JSON.stringify(names.map((name, i) => [name, expected[i]]))) {
        if (Date.now() - started > 10_000)
          throw new Error(`not planned from the stored set and quotes: ${JSON.stringify(await planned())}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The worker nudges through Redis; its entries would be found by the next poll anyway (a second).
      expect(Date.now() - started).toBeLessThan(2_500);
    });
  });
});
