import { ChildProcess, spawn } from 'node:child_process';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Universe } from '../../src/platform/simulator';
import type { InventoryItem } from '../../src/platform/client/platform.types';
import { foilNameOf } from '../../src/pricing/app-pricer.service';
import { SetPrice, setPriceOf } from '../../src/pricing/set-price';
import { openSse, SseConnection } from '../support/sse';
import { PipelineContext, startPipeline } from '../support/pipeline';
import { freePort } from '../support/ports';
import { REDIS_URL } from '../support/stores';
import { startTestApp, TestContext } from '../support/test-app';
import { entrypoint } from '../support/entrypoints';

const root = join(__dirname, '..', '..');

const isNormalCard = (item: InventoryItem) =>
  item.tags.some((t) => t.internalName === 'item_class_2') && item.tags.some((t) => t.internalName === 'cardborder_0');

/** A public account of the universe whose inventory holds normal cards of a few apps it also has badges of. */
function accountWithCards(universe: Universe, tick: number): { accountId: number; cardApps: number[] } {
  for (let id = 1; id <= universe.size; id++) {
    if (universe.isPrivate(id)) continue;
    const cardApps = [
      ...new Set(
        universe
          .inventory(id)
          .filter(isNormalCard)
          .map((item) => item.marketFeeApp!),
      ),
    ];
    const badgeApps = new Set(universe.badges(id, tick).badges.map((b) => b.appId));
    if (cardApps.length >= 1 && cardApps.length <= 6 && cardApps.some((app) => badgeApps.has(app))) return { accountId: id, cardApps };
  }
  throw new Error('no account with cards of a badge app');
}

type StoredPrice = SetPrice & { updatedAt: Date };

const FIGURES = `app_id AS "appId", badge_type AS "badgeType", cards, unlisted_cards AS "unlistedCards",
  unmarketable_cards AS "unmarketableCards", average_volume AS "averageVolume", card_average_price AS "cardAveragePrice",
  set_price AS "setPrice", buy_order_average_price AS "buyOrderAveragePrice", set_buy_order_price AS "setBuyOrderPrice",
  updated_at AS "updatedAt"`;

function tickOf(price: SetPrice, updatedAt: Date) {
  return {
    appId: price.appId,
    badgeType: price.badgeType,
    averageListings: price.averageVolume,
    cardAveragePrice: price.cardAveragePrice,
    setPrice: price.setPrice,
    buyOrderAveragePrice: price.buyOrderAveragePrice,
    setBuyOrderPrice: price.setBuyOrderPrice,
    updatedAt: updatedAt.getTime(),
  };
}

/** The worker (in process), the API and the simulator on a manual clock: prices move only when the test says. */
describe('market pricing', () => {
  let ctx: PipelineContext;
  let port: number;
  let stream: SseConnection;

  beforeAll(async () => {
    ctx = await startPipeline('pricing', {
      env: { PRICING_INTERVAL_MS: '1000', PLATFORM_MARKET_CALLS_PER_MINUTE: '600000', STREAM_HEARTBEAT_MS: '200' },
    });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    await ctx.startWorker();
  });
  afterAll(async () => {
    stream?.close();
    await ctx.close();
  });

  /** What the simulator's market says about an app's sets now: the whole set its catalogue (the platform's) lists. */
  async function expectedPrices(appId: number): Promise<SetPrice[]> {
    const tick = ctx.simulator.universe.tickAt(ctx.clock.now);
    const quote = (name: string) => ctx.simulator.universe.marketPrice(name, tick);
    const app = ctx.simulator.universe.catalogue.byId(appId)!;
    const names = app.cards.map((card) => `${appId}-${card}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return [
      setPriceOf(appId, 'normal', names.map(quote)),
      setPriceOf(
        appId,
        'foil',
        names.map((n) => quote(foilNameOf(n))),
      ),
    ];
  }

  async function stored(): Promise<StoredPrice[]> {
    return ctx.dataSource.query(`SELECT ${FIGURES} FROM app_market_prices ORDER BY app_id, badge_type DESC`);
  }

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 400)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('should price the apps of a refreshed account, stream each change, and serve the prices in badges and profiles', async () => {
    const key = await ctx.apiKey(1);
    const { accountId, cardApps } = accountWithCards(ctx.simulator.universe, ctx.simulator.universe.tickAt(ctx.clock.now));
    stream = await openSse(port, '/v1/badge.pricing.subscribe');
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain('text/event-stream');

    await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    await ctx.waitForCompletion(accountId, key);
    const prices = await waitFor(stored, (rows) => rows.length === cardApps.length * 2, 'both sets of every card app');

    // The stored figures are the simulator's market, card by card.
    const expected = (await Promise.all(cardApps.sort((a, b) => a - b).map(expectedPrices))).flat();
    expect(prices.map(({ updatedAt, ...figures }) => figures)).toEqual(expected);
    // Each first reading was a change, streamed as a tick with the stored figures.
    for (const price of prices) {
      const tick = await stream.waitFor(
        (e) =>
          e.event === 'market-price-tick' &&
          (e.data as { appId: number; badgeType: string }).appId === price.appId &&
          (e.data as { badgeType: string }).badgeType === price.badgeType,
      );
      expect(tick.data).toEqual(tickOf(price, price.updatedAt));
    }
    await stream.waitFor((e) => e.event === 'heartbeat');
    // While the market stands still, later cycles re-read the same figures and publish nothing.
    const ticks = stream.events.filter((e) => e.event === 'market-price-tick').length;
    expect(ticks).toBe(prices.length);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(stream.events.filter((e) => e.event === 'market-price-tick').length).toBe(ticks);
    expect((await stored()).map((p) => p.updatedAt)).toEqual(prices.map((p) => p.updatedAt));

    // app.listBadges: `price`, `noListing` and `isNmc` come from the set of the badge's side.
    const [badgeApp] = await ctx.dataSource.query(
      `SELECT b.app_id FROM account_badges ab JOIN badges b ON b.id = ab.badge_id WHERE ab.account_id = $1 AND b.app_id = ANY($2) LIMIT 1`,
      [accountId, cardApps],
    );
    const listed = await ctx
      .http()
      .post('/v1/app.listBadges')
      .set('Authorization', `Bearer ${key}`)
      .send({ appId: badgeApp.app_id })
      .expect(200);
    expect(listed.body.badges.length).toBeGreaterThan(0);
    for (const badge of listed.body.badges) {
      const set = prices.find((p) => p.appId === badgeApp.app_id && p.badgeType === (badge.isFoil ? 'foil' : 'normal'))!;
      expect({ price: badge.price, noListing: badge.noListing, isNmc: badge.isNmc }).toEqual({
        price: set.setPrice,
        noListing: set.unlistedCards > 0,
        isNmc: set.unmarketableCards > 0,
      });
    }
    expect(prices.some((p) => p.setPrice > 0)).toBe(true);

    // account.getInfo: each badge level at its set's price; sets not priced count nothing.
    const held: { app_id: number; is_foil: boolean; level: number }[] = await ctx.dataSource.query(
      `SELECT b.app_id, b.is_foil, ab.level FROM account_badges ab JOIN badges b ON b.id = ab.badge_id WHERE ab.account_id = $1 AND b.app_id IS NOT NULL`,
      [accountId],
    );
    const cost = (foil: boolean) =>
      held
        .filter((b) => b.is_foil === foil)
        .reduce(
          (sum, b) =>
            sum + b.level * (prices.find((p) => p.appId === b.app_id && p.badgeType === (foil ? 'foil' : 'normal'))?.setPrice ?? 0),
          0,
        );
    const profile = await ctx
      .http()
      .post('/v1/account.getInfo')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId } })
      .expect(200);
    expect({ normal: profile.body.normalBadgeCost, foil: profile.body.foilBadgeCost, app: profile.body.appCost }).toEqual({
      normal: cost(false),
      foil: cost(true),
      app: cost(false) + cost(true),
    });
    expect(profile.body.normalBadgeCost).toBeGreaterThan(0);
  });

  it('should stream the new figures when market prices drift, and serve them', async () => {
    const before = await stored();
    ctx.clock.advance(3 * 86_400_000);
    const appIds = [...new Set(before.map((p) => p.appId))];
    const expected = (await Promise.all(appIds.map(expectedPrices))).flat();
    const after = await waitFor(
      stored,
      (rows) => JSON.stringify(rows.map(({ updatedAt, ...figures }) => figures)) === JSON.stringify(expected),
      'the drifted prices',
    );
    const changed = after.filter((p, i) => p.updatedAt.getTime() !== before[i].updatedAt.getTime());
    expect(changed.length).toBeGreaterThan(0);
    for (const price of changed) {
      const tick = await stream.waitFor(
        (e) =>
          e.event === 'market-price-tick' &&
          (e.data as { appId: number; updatedAt: number }).appId === price.appId &&
          (e.data as { badgeType: string }).badgeType === price.badgeType &&
          (e.data as { updatedAt: number }).updatedAt === price.updatedAt.getTime(),
      );
      expect(tick.data).toEqual(tickOf(price, price.updatedAt));
    }
    const [badge] = await ctx.dataSource.query(`SELECT app_id, is_foil FROM badges WHERE app_id = ANY($1) LIMIT 1`, [appIds]);
    const listed = await ctx
      .http()
      .post('/v1/app.listBadges')
      .set('Authorization', `Bearer ${await ctx.apiKey(1)}`)
      .send({ appId: badge.app_id });
    const set = after.find((p) => p.appId === badge.app_id && p.badgeType === (badge.is_foil ? 'foil' : 'normal'))!;
    expect(listed.body.badges.find((b: { isFoil: boolean }) => b.isFoil === badge.is_foil).price).toBe(set.setPrice);
  });
});

/** `npm start`'s two processes from source (API with its embedded simulator, worker), nothing else. */
describe('market pricing through the running service', () => {
  let ctx: TestContext;
  const children: ChildProcess[] = [];
  let port: number;
  let simulatorPort: number;
  const intervalMs = 2000;

  beforeAll(async () => {
    // Only for its fresh database, Redis prefix and a credential; the processes under test open their own connections.
    ctx = await startTestApp('pricingproc');
    [port, simulatorPort] = [await freePort(), await freePort()];
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await ctx.close();
  });

  function start(file: string): ChildProcess {
    const child = spawn(process.execPath, [entrypoint(file)], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        SIMULATOR_PORT: String(simulatorPort),
        DATABASE_URL: ctx.config.databaseUrl,
        // The context's Redis database, which its close() clears (the default, database 0, is nobody's to clean).
        REDIS_URL,
        REDIS_PREFIX: ctx.config.redisPrefix,
        LOG_LEVEL: 'warn',
        PRICING_INTERVAL_MS: String(intervalMs),
        PLATFORM_MARKET_CALLS_PER_MINUTE: '60000',
        STREAM_HEARTBEAT_MS: '500',
      },
      stdio: 'ignore',
    });
    children.push(child);
    return child;
  }

  it('should bring a tick to an open badge.pricing.subscribe stream within one cycle of an app becoming known', async () => {
    start('main.ts');
    start('worker.ts');
    const base = `http://127.0.0.1:${port}`;
    // Two processes compiling from source on a shared machine: boot may take a while; the cycle is what is timed.
    const deadline = Date.now() + 120_000;
    while (
      !(await fetch(`${base}/health`).then(
        (res) => res.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error('the API did not come up');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const key = await ctx.apiKey(1);
    const universe = new Universe({ seed: 1, accounts: 2000 });
    const { accountId, cardApps } = accountWithCards(universe, universe.tickAt(Date.now()));
    const stream = await openSse(port, '/v1/badge.pricing.subscribe');
    try {
      expect(stream.status).toBe(200);
      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await post('/v1/account.queueUpdate', { id: { accountId } })).status).toBe(204);
      let completedAt = 0;
      while (!completedAt) {
        const info = (await (await post('/v1/account.getInfo', { id: { accountId } })).json()) as { lastQueueStatus: string };
        if (info.lastQueueStatus === 'completed') completedAt = Date.now();
        else if (Date.now() > deadline + 30_000) throw new Error('the worker did not refresh the account');
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The worker is busy; the next cycle starts within one interval and its first app takes milliseconds.
      const tick = await stream.waitFor((e) => e.event === 'market-price-tick', intervalMs + 3000);
      expect(Date.now() - completedAt).toBeLessThan(intervalMs + 3000);
      expect(cardApps).toContain((tick.data as { appId: number }).appId);
      expect(tick.data).toEqual({
        appId: expect.any(Number),
        badgeType: expect.stringMatching(/^(normal|foil)$/),
        averageListings: expect.any(Number),
        cardAveragePrice: expect.any(Number),
        setPrice: expect.any(Number),
        buyOrderAveragePrice: expect.any(Number),
        setBuyOrderPrice: expect.any(Number),
        updatedAt: expect.any(Number),
      });
      await stream.waitFor((e) => e.event === 'heartbeat');
    } finally {
      stream.close();
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
    }
  }, 200_000);
});
