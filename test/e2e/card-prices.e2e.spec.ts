import { Client } from 'pg';
import { Universe } from '../../src/platform/simulator';
import type { InventoryItem } from '../../src/platform/client/platform.types';
import { foilNameOf } from '../../src/pricing/card-quotes';
import { seedMarketPrices } from '../../src/seed/seed-prices';
import { PipelineContext, startPipeline } from '../support/pipeline';

const isNormalCard = (item: InventoryItem) =>
  item.tags.some((t) => t.internalName === 'item_class_2') && item.tags.some((t) => t.internalName === 'cardborder_0');

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The normal card names of an app's set, as the market lists them. */
function setOf(universe: Universe, appId: number): string[] {
  return universe.catalogue
    .byId(appId)!
    .cards.map((card) => `${appId}-${card}`)
    .sort(byName);
}

/**
 * A public account holding cards of 3..8 apps, one of whose foil sets has a card nobody lists at `tick` (so the
 * listing's treatment of an incomplete set is seen) and one whose sets are fully listed.
 */
function accountWithCards(universe: Universe, tick: number): { accountId: number; cardApps: number[]; incomplete: number } {
  const unlisted = (appId: number) =>
    setOf(universe, appId).some((name) => universe.marketPrice(foilNameOf(name), tick)?.lowestPrice == null);
  for (let id = 1; id <= universe.size; id++) {
    if (universe.isPrivate(id)) continue;
    const cardApps = [
      ...new Set(
        universe
          .inventory(id)
          .filter(isNormalCard)
          .map((item) => item.marketFeeApp!),
      ),
    ].sort((a, b) => a - b);
    if (cardApps.length < 3 || cardApps.length > 8) continue;
    const incomplete = cardApps.find(unlisted);
    if (incomplete !== undefined && cardApps.some((app) => !unlisted(app))) return { accountId: id, cardApps, incomplete };
  }
  throw new Error('no account with cards of an app whose foil set has an unlisted card');
}

interface CardRow {
  app_id: number;
  badge_type: string;
  market_hash_name: string;
  lowest_price: number | null;
  buy_price: number | null;
  volume: number;
  updated_at: Date;
}

/** The listing recomputed from the card quotes alone: every card listed, the sum of their lowest prices, the oldest quote. */
const RECOMPUTED = `
  SELECT c.app_id AS "appId", c.badge_type AS "badgeType", count(*)::int AS cards, sum(c.lowest_price)::int AS "setCost",
         min(c.updated_at) AS "asOf"
    FROM card_market_prices c
   WHERE c.app_id = ANY($1)
   GROUP BY c.app_id, c.badge_type
  HAVING bool_and(c.lowest_price IS NOT NULL)
   ORDER BY 4, 1, 2`;

interface Recomputed {
  appId: number;
  badgeType: 'normal' | 'foil';
  cards: number;
  setCost: number;
  asOf: Date;
}

/** The worker's real pricing job against the simulator's market on a manual clock, then badge.listCheapest. */
describe('card prices and badge.listCheapest', () => {
  let ctx: PipelineContext;
  let key: string;
  let cardApps: number[];
  let incomplete: number;

  beforeAll(async () => {
    ctx = await startPipeline('cardprices', { env: { PRICING_INTERVAL_MS: '1000', PLATFORM_MARKET_CALLS_PER_MINUTE: '600000' } });
    key = await ctx.apiKey(1);
    await ctx.startWorker();
  });
  afterAll(() => ctx.close());

  const q = <T>(sql: string, params: unknown[] = []) => ctx.dataSource.query(sql, params) as Promise<T[]>;
  const tickNow = () => ctx.simulator.universe.tickAt(ctx.clock.now);

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 400)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const cardRows = () =>
    q<CardRow>('SELECT * FROM card_market_prices WHERE app_id = ANY($1) ORDER BY app_id, badge_type, market_hash_name', [cardApps]);

  /** Each card's quote as the simulator's market gives it now, in the table's order. */
  function expectedCards(sets: Map<number, string[]>) {
    const tick = tickNow();
    return [...sets]
      .flatMap(([appId, names]) =>
        (['foil', 'normal'] as const).flatMap((badgeType) =>
          names.map((normal) => {
            const name = badgeType === 'foil' ? foilNameOf(normal) : normal;
            const quote = ctx.simulator.universe.marketPrice(name, tick);
            return {
              app_id: appId,
              badge_type: badgeType,
              market_hash_name: name,
              lowest_price: quote?.lowestPrice ?? null,
              buy_price: quote?.medianPrice ?? null,
              volume: quote?.volume ?? 0,
            };
          }),
        ),
      )
      .sort((a, b) => a.app_id - b.app_id || byName(a.badge_type, b.badge_type) || byName(a.market_hash_name, b.market_hash_name));
  }

  const quotesOf = (rows: CardRow[]) => rows.map(({ updated_at, ...quote }) => quote);

  async function listCheapest(body: Record<string, unknown>, status = 200) {
    const res = await ctx.http().post('/v1/badge.listCheapest').set('Authorization', `Bearer ${key}`).send(body);
    expect({ status: res.status, body: res.status === status ? 'ok' : res.body }).toEqual({ status, body: 'ok' });
    return res.body;
  }

  /** Every page of a listing, `limit` at a time. */
  async function allPages(body: Record<string, unknown>, limit: number) {
    const entries: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await listCheapest({ ...body, limit, ...(cursor ? { cursor } : {}) });
      expect(page.badges.length).toBeLessThanOrEqual(limit);
      entries.push(...page.badges);
      cursor = page.nextCursor;
      if (!cursor) return entries;
    }
    throw new Error('the listing did not end');
  }

  /** The listing's entries as the recomputation from card quotes says they must be. */
  function entriesOf(rows: Recomputed[]) {
    return rows.map((row) => ({
      appId: row.appId,
      appName: expect.any(String),
      badgeType: row.badgeType,
      cards: row.cards,
      setCost: row.setCost,
      xpPerLevel: 100,
      costPerXp: row.setCost / 100,
      maxLevel: row.badgeType === 'foil' ? 1 : 5,
      fullBadgeCost: (row.badgeType === 'foil' ? 1 : 5) * row.setCost,
      averageVolume: expect.any(Number),
      pricesAsOf: row.asOf.toISOString(),
    }));
  }

  it('should keep each card’s own quote, in the same transaction as the set figures', async () => {
    const found = accountWithCards(ctx.simulator.universe, tickNow());
    [cardApps, incomplete] = [found.cardApps, found.incomplete];
    const { accountId } = found;
    await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    await ctx.waitForCompletion(accountId, key);
    const sets = new Map(cardApps.map((appId) => [appId, setOf(ctx.simulator.universe, appId)]));
    const expected = expectedCards(sets);
    await waitFor(cardRows, (r) => r.length === expected.length, 'every card of every card app, normal and foil');
    // Stopped while the answers are compared: each cycle reads every app again, moving the quotes' times.
    await ctx.stopWorker();
    const rows = await cardRows();
    expect(quotesOf(rows)).toEqual(expected);
    // One read per app: all its quotes and its set figures carry the time the app was marked priced.
    const checked = await q<{ app_id: number; checked_at: Date; set_times: Date[] }>(
      `SELECT p.app_id, p.checked_at, array_agg(DISTINCT m.updated_at) AS set_times FROM app_pricing p
         JOIN app_market_prices m ON m.app_id = p.app_id WHERE p.app_id = ANY($1) GROUP BY p.app_id, p.checked_at`,
      [cardApps],
    );
    for (const row of rows) {
      const app = checked.find((c) => c.app_id === row.app_id)!;
      expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(app.set_times[0].getTime());
      expect(row.updated_at.getTime()).toBe(app.checked_at.getTime());
    }
    // The set figures are the sums of the same quotes.
    const sums = await q<{ app_id: number; badge_type: string; set_price: number; sum: number; unlisted: number; unlisted_cards: number }>(
      `SELECT m.app_id, m.badge_type, m.set_price, COALESCE(sum(c.lowest_price), 0)::int AS sum, m.unlisted_cards,
              count(*) FILTER (WHERE c.lowest_price IS NULL)::int AS unlisted
         FROM app_market_prices m JOIN card_market_prices c USING (app_id, badge_type)
        WHERE m.app_id = ANY($1) GROUP BY m.app_id, m.badge_type, m.set_price, m.unlisted_cards`,
      [cardApps],
    );
    expect(sums).toHaveLength(cardApps.length * 2);
    for (const row of sums) expect({ sum: row.sum, unlisted: row.unlisted }).toEqual({ sum: row.set_price, unlisted: row.unlisted_cards });
    expect(rows.some((r) => r.app_id === incomplete && r.badge_type === 'foil' && r.lowest_price === null)).toBe(true);
    // Each store of an app's quotes is in the change feed, named by an entry of the quotes' own transaction (their
    // xmin: the low 32 bits of the entry's xid), which the planner's CardQuoteBook follows.
    const recorded = await q<{ app_id: number; recorded: boolean }>(
      `SELECT c.app_id, bool_and(EXISTS (SELECT 1 FROM change_feed f WHERE f.kind = 'card-prices'
                AND f.payload->'appIds' @> to_jsonb(c.app_id) AND f.xid % 4294967296 = c.xmin::text::bigint)) AS recorded
         FROM card_market_prices c WHERE c.app_id = ANY($1) GROUP BY c.app_id ORDER BY c.app_id`,
      [cardApps],
    );
    expect(recorded).toEqual([...cardApps].sort((a, b) => a - b).map((appId) => ({ app_id: appId, recorded: true })));
  });

  it('should list the fully listed sets cheapest first, as a recomputation from the card quotes says', async () => {
    const recomputed = await q<Recomputed>(RECOMPUTED, [cardApps]);
    expect(recomputed.length).toBeGreaterThanOrEqual(3);
    // Both sides, a page of 2 at a time: the pages join into the whole ordered listing (ties: app id, foil first).
    expect(await allPages({}, 2)).toEqual(entriesOf(recomputed));
    // A set with a card nobody lists cannot be bought whole now: it is not listed.
    expect(recomputed.some((r) => r.appId === incomplete && r.badgeType === 'foil')).toBe(false);
    const only = await listCheapest({ appId: incomplete });
    expect(only.badges).toEqual(entriesOf(recomputed.filter((r) => r.appId === incomplete)));
    // Sorting by cost per xp gives the same order (100 xp a level, normal or foil).
    expect(await allPages({ sort: 'costPerXp', badgeType: 'foil' }, 3)).toEqual(
      entriesOf(recomputed.filter((r) => r.badgeType === 'foil')),
    );
    // A price range, on one side.
    const costs = recomputed.filter((r) => r.badgeType === 'normal').map((r) => r.setCost);
    const [minSetCost, maxSetCost] = [costs[1], costs[costs.length - 1] - 1];
    expect(await allPages({ badgeType: 'normal', minSetCost, maxSetCost }, 1)).toEqual(
      entriesOf(recomputed.filter((r) => r.badgeType === 'normal' && r.setCost >= minSetCost && r.setCost <= maxSetCost)),
    );
    expect((await listCheapest({ appId: cardApps[0], badgeType: 'normal' })).badges).toEqual(
      entriesOf(recomputed.filter((r) => r.appId === cardApps[0] && r.badgeType === 'normal')),
    );
  });

  it('should answer clear problems for a bad page, range or cursor', async () => {
    await listCheapest({ limit: 101 }, 422);
    await listCheapest({ badgeType: 'shiny' }, 422);
    await listCheapest({ minSetCost: 10, maxSetCost: 5 }, 422);
    const forged = Buffer.from(JSON.stringify([1, 2, 7])).toString('base64url');
    const problem = await listCheapest({ cursor: forged }, 422);
    expect(problem.errors?.[0]?.location ?? problem.detail).toBeDefined();
    await ctx.http().post('/v1/badge.listCheapest').send({}).expect(401);
  });

  it('should follow the market as it drifts, and drop the cards no longer in a set', async () => {
    const before = await cardRows();
    // One card leaves the smallest-id app's set (the market's set changed): the next read removes its quotes.
    const shrunk = cardApps[0];
    const names = setOf(ctx.simulator.universe, shrunk);
    await q('UPDATE app_card_counts SET cards = $2, card_names = $3 WHERE app_id = $1', [shrunk, names.length - 1, names.slice(0, -1)]);
    ctx.clock.advance(3 * 86_400_000);
    await ctx.startWorker();
    const sets = new Map(cardApps.map((appId) => [appId, appId === shrunk ? names.slice(0, -1) : setOf(ctx.simulator.universe, appId)]));
    const expected = expectedCards(sets);
    await waitFor(cardRows, (rows) => JSON.stringify(quotesOf(rows)) === JSON.stringify(expected), 'the drifted quotes');
    await ctx.stopWorker();
    const after = await cardRows();
    expect(quotesOf(after)).toEqual(expected);
    expect(after.every((row) => row.updated_at > before[0].updated_at)).toBe(true);
    expect(after.filter((row) => row.app_id === shrunk)).toHaveLength(2 * (names.length - 1));
    // The prices moved, card by card.
    expect(
      quotesOf(after).filter((row) =>
        before.some((b) => b.market_hash_name === row.market_hash_name && b.lowest_price !== row.lowest_price),
      ).length,
    ).toBeGreaterThan(0);
    const recomputed = await q<Recomputed>(RECOMPUTED, [cardApps]);
    expect(await allPages({}, 4)).toEqual(entriesOf(recomputed));
  });

  it('should seed exactly what the pricing job stores at the same instant', async () => {
    const job = await q<Record<string, unknown>>(
      `SELECT app_id, badge_type, market_hash_name, lowest_price, buy_price, volume FROM card_market_prices
        WHERE app_id = ANY($1) ORDER BY 1, 2, 3`,
      [cardApps],
    );
    const jobSets = await q<Record<string, unknown>>(
      `SELECT app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume, card_average_price, set_price,
              buy_order_average_price, set_buy_order_price FROM app_market_prices WHERE app_id = ANY($1) ORDER BY 1, 2`,
      [cardApps],
    );
    // The job read the market at the clock's tick; the seed prices at that instant, from the simulator's universe.
    const client = new Client({ connectionString: ctx.config.databaseUrl });
    await client.connect();
    const at = new Date(ctx.clock.now);
    try {
      const seeded = await seedMarketPrices(client, ctx.simulator.universe, at);
      expect(seeded.apps).toBeGreaterThanOrEqual(cardApps.length);
    } finally {
      await client.end();
    }
    const shrunk = cardApps[0];
    const full = setOf(ctx.simulator.universe, shrunk);
    const seededRows = await q<Record<string, unknown> & { updated_at: Date }>(
      `SELECT app_id, badge_type, market_hash_name, lowest_price, buy_price, volume, updated_at FROM card_market_prices
        WHERE app_id = ANY($1) ORDER BY 1, 2, 3`,
      [cardApps],
    );
    expect(seededRows.every((row) => row.updated_at.getTime() === at.getTime())).toBe(true);
    // The seed prices the whole set (the shrunk app's last card is back), every other quote as the job read it.
    const removed = [full[full.length - 1], foilNameOf(full[full.length - 1])];
    expect(seededRows.filter((row) => !removed.includes(row.market_hash_name as string)).map(({ updated_at, ...row }) => row)).toEqual(job);
    expect(seededRows.filter((row) => removed.includes(row.market_hash_name as string))).toHaveLength(2);
    const seededSets = await q<Record<string, unknown>>(
      `SELECT app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume, card_average_price, set_price,
              buy_order_average_price, set_buy_order_price FROM app_market_prices WHERE app_id = ANY($1) AND app_id <> $2 ORDER BY 1, 2`,
      [cardApps, shrunk],
    );
    expect(seededSets).toEqual(jobSets.filter((row) => row.app_id !== shrunk));
    const [set] = await q<{ cards: number; card_names: string[] }>('SELECT cards, card_names FROM app_card_counts WHERE app_id = $1', [
      shrunk,
    ]);
    expect(set).toEqual({ cards: full.length, card_names: full });
  });
});
