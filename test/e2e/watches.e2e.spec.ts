import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { InventoryItem } from '../../src/platform/client/platform.types';
import { WatchEvaluator } from '../../src/watches/watch-evaluator.service';
import { PipelineContext, startPipeline } from '../support/pipeline';
import { openSse, SseConnection } from '../support/sse';

const DAYS_90 = 90 * 86_400_000;
const isNormalCard = (item: InventoryItem) =>
  item.tags.some((t) => t.internalName === 'item_class_2') && item.tags.some((t) => t.internalName === 'cardborder_0');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local webhook receiver that answers 200 to everything and keeps what it was sent. */
class Receiver {
  readonly requests: Received[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/watches`;
  }

  /** The `watch.fired` events received for one watch. */
  firedFor(watchId: string): { id: string; type: string; data: { accountId: number; watch: Record<string, unknown> } }[] {
    return this.requests
      .map((r) => JSON.parse(r.body))
      .filter((event) => event.type === 'watch.fired' && event.data.watch.watchId === watchId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Watches through the real stack: the API, the worker (pricing job, updates, webhooks) and the simulator on a manual
 * clock. Every watch that fires is checked at a local webhook receiver (signed) and on the owner's stream, and
 * against the rows it was judged from.
 */
describe('watches', () => {
  let ctx: PipelineContext;
  const receiver = new Receiver();
  let port: number;
  let owner: number;
  let friend: number;
  let session: string;
  let key: string;
  let staffKey: string;
  let secret: string;
  let ownStream: SseConnection;
  let strangerStream: SseConnection;

  const call = (operation: string, token: string, body: object = {}) =>
    ctx.http().post(`/v1/${operation}`).set('Authorization', `Bearer ${token}`).send(body);
  const update = async (accountId: number) => {
    await call('account.queueUpdate', staffKey, { id: { accountId }, force: true }).expect(204);
    await ctx.waitForCompletion(accountId, staffKey, 20_000);
  };
  const watchRow = async (watchId: string) =>
    (await ctx.dataSource.query('SELECT fired_at, fired, last_value FROM account_watches WHERE watch_id = $1', [watchId]))[0];

  /** The watch fired exactly once: one signed webhook event, one stream event, and the row's `fired_at`. */
  async function expectFiredOnce(watchId: string): Promise<Record<string, unknown>> {
    const event = await until('the watch.fired webhook', () => receiver.firedFor(watchId)[0]);
    const request = receiver.requests.find((r) => JSON.parse(r.body).id === event.id)!;
    const timestamp = String(request.headers['webhook-timestamp']);
    expect(request.headers['webhook-signature']).toBe(
      `v1=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`,
    );
    const streamed = await ownStream.waitFor(
      (e) => e.event === 'watch-fired' && (e.data as { watch: { watchId: string } }).watch.watchId === watchId,
    );
    expect(streamed.data).toEqual(event.data);
    expect(event.data.accountId).toBe(owner);
    const row = await watchRow(watchId);
    expect(row.fired_at).not.toBeNull();
    expect(event.data.watch).toMatchObject({ watchId, firedAt: row.fired_at.toISOString(), fired: row.fired });
    const listed = (await call('account.listWatches', session).expect(200)).body.watches.find(
      (w: { watchId: string }) => w.watchId === watchId,
    );
    expect(listed).toEqual(event.data.watch);
    return row.fired;
  }

  /** Still one event each way (after the fact that could fire it again had every chance to). */
  async function expectStillOnce(watchId: string): Promise<void> {
    await sleep(1500);
    expect(receiver.firedFor(watchId)).toHaveLength(1);
    expect(
      ownStream.events.filter((e) => e.event === 'watch-fired' && (e.data as { watch: { watchId: string } }).watch.watchId === watchId),
    ).toHaveLength(1);
  }

  beforeAll(async () => {
    await receiver.start();
    ctx = await startPipeline('watches', {
      env: {
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_BACKOFF_MS: '100',
        PRICING_INTERVAL_MS: '1000',
        PLATFORM_MARKET_CALLS_PER_MINUTE: '600000',
        STREAM_HEARTBEAT_MS: '200',
      },
    });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    // An owner with cards (for a priced set) and a public friend who crafts a badge level within 90 days.
    const universe = ctx.simulator.universe;
    const [now, later] = [universe.tickAt(ctx.clock.now), universe.tickAt(ctx.clock.now + DAYS_90)];
    const levels = (id: number, tick: number) => universe.badges(id, tick).badges.reduce((sum, b) => sum + b.level, 0);
    for (let id = 2; id < 200 && !owner; id++) {
      if (universe.isPrivate(id) || !universe.inventory(id).some(isNormalCard)) continue;
      const crafter = universe.friendIds(id, now).find((f) => !universe.isPrivate(f) && levels(f, later) > levels(f, now));
      if (crafter) [owner, friend] = [id, crafter];
    }
    expect(owner).toBeDefined();
    session = (await ctx.session(owner)).sessionToken;
    key = await ctx.apiKey(owner);
    // Updates again within the cooldown (`force`) are a staff key's: account 1's (never the owner, found from 2 up).
    staffKey = await ctx.apiKey(1);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'staff')`);
    const keyId = `key_${key.split('_')[1]}`;
    const webhook = await call('account.createWebhook', session, { keyId, url: receiver.url, events: ['watch.fired'] }).expect(200);
    secret = webhook.body.secret;
    await ctx.startWorker();
    ownStream = await openSse(port, `/v1/account.subscribe?accountId=${owner}`, { Authorization: `Bearer ${session}` });
    strangerStream = await openSse(port, `/v1/account.subscribe?accountId=${owner}`, {
      Authorization: `Bearer ${(await ctx.session(owner === 1 ? 2 : 1)).sessionToken}`,
    });
    expect([ownStream.status, strangerStream.status]).toEqual([200, 200]);
    // The owner's update reads its friends and cards (and the pricing job prices their sets); the friend's first is its baseline.
    await update(owner);
    await update(friend);
  }, 120_000);
  afterAll(async () => {
    ownStream?.close();
    strangerStream?.close();
    await ctx.close();
    await receiver.close();
  }, 60_000);

  it('should validate a watch by its kind, keep it to its owner and to sessions', async () => {
    const refused = await call('account.createWatch', session, { kind: 'setPrice', appId: 10, leaderboard: 'xp' }).expect(422);
    expect(refused.body.errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.atOrBelowCents', 'body.leaderboard']);
    await call('account.createWatch', session, { kind: 'lowestCard', appId: 10 }).expect(422);
    await call('account.createWatch', session, { kind: 'rank', accountId: 1, leaderboard: 'nope', rank: 1 }).expect(422);
    await call('account.createWatch', session, { kind: 'rank', accountId: 1, leaderboard: 'xp', rank: 0 }).expect(422);
    await call('account.createWatch', session, { kind: 'rank', accountId: 299, leaderboard: 'xp', rank: 5 }).expect(404);
    await call('account.createWatch', session, { kind: 'setPrice', appId: 2_000_000_000, atOrBelowCents: 5 }).expect(404);
    const [{ stranger }] = await ctx.dataSource.query(
      `SELECT min(n) AS stranger FROM generate_series(1, 300) n
        WHERE n <> $1 AND NOT EXISTS (SELECT 1 FROM account_friends WHERE account_id = $1 AND friend_account_id = n)`,
      [owner],
    );
    const notFriend = await call('account.createWatch', session, { kind: 'friendBadge', accountId: stranger }).expect(422);
    expect(notFriend.body.errors[0].location).toBe('body.accountId');
    // Session only: the owner's API key is refused.
    await call('account.listWatches', key).expect(401);
    await call('account.deleteWatch', session, { watchId: 'wch_0000000000000000' }).expect(404);
    await call('account.deleteWatch', session, { watchId: 'nope' }).expect(422);
    expect((await call('account.listWatches', session).expect(200)).body.watches).toEqual([]);
  });

  it('should bound the watches of an account', async () => {
    const other = (await ctx.session(3)).sessionToken;
    await ctx.dataSource.query(
      `INSERT INTO account_watches (watch_id, account_id, kind, target, params)
       SELECT 'wch_' || lpad(to_hex(n), 16, '0'), 3, 'setPrice', 'price:1:normal', '{"appId":1,"foil":false,"atOrBelowCents":1}'
         FROM generate_series(1, 49) n`,
    );
    const app = (await ctx.dataSource.query('SELECT app_id FROM apps ORDER BY app_id LIMIT 1'))[0].app_id;
    await call('account.createWatch', other, { kind: 'setPrice', appId: app, atOrBelowCents: 1 }).expect(200);
    const over = await call('account.createWatch', other, { kind: 'setPrice', appId: app, atOrBelowCents: 1 }).expect(422);
    expect(over.body.detail).toContain('50');
    expect((await ctx.dataSource.query('SELECT count(*)::int AS n FROM account_watches WHERE account_id = 3'))[0].n).toBe(50);
    expect((await call('account.listWatches', other).expect(200)).body.watches).toHaveLength(50);
    // Another account's watch is not the owner's to delete (nor to see).
    await call('account.deleteWatch', session, { watchId: 'wch_0000000000000001' }).expect(404);
    expect((await call('account.listWatches', session).expect(200)).body.watches).toEqual([]);
    await call('account.deleteWatch', other, { watchId: 'wch_0000000000000001' }).expect(204);
    await call('account.createWatch', other, { kind: 'setPrice', appId: app, atOrBelowCents: 1 }).expect(200);
  });

  it('should fire a set price watch once, when the pricing job stores a price at or below it', async () => {
    const priced: { app_id: number } = await until('a priced normal set of the owner’s cards', async () => {
      const rows = await ctx.dataSource.query(
        `SELECT app_id FROM app_market_prices WHERE badge_type = 'normal' AND set_price > 0 ORDER BY app_id LIMIT 1`,
      );
      return rows[0];
    });
    const any = (
      await call('account.createWatch', session, { kind: 'setPrice', appId: priced.app_id, atOrBelowCents: 2_000_000_000 }).expect(200)
    ).body.watch;
    expect(any).toMatchObject({
      kind: 'setPrice',
      appId: priced.app_id,
      foil: false,
      atOrBelowCents: 2_000_000_000,
      firedAt: null,
      fired: null,
    });
    const never = (await call('account.createWatch', session, { kind: 'setPrice', appId: priced.app_id, atOrBelowCents: 0 }).expect(200))
      .body.watch;
    // The market moves: the next cycle stores a changed price, and the first watch fires on it.
    ctx.clock.advance(DAYS_90);
    const fired = await expectFiredOnce(any.watchId);
    const [stored] = await ctx.dataSource.query(`SELECT set_price FROM app_market_prices WHERE app_id = $1 AND badge_type = 'normal'`, [
      priced.app_id,
    ]);
    expect(fired).toEqual({ setPrice: stored.set_price });
    // Prices move again: another change, no second firing; the watch below every price never fires.
    ctx.clock.advance(DAYS_90);
    await until('another stored change', async () => {
      const [row] = await ctx.dataSource.query(`SELECT set_price FROM app_market_prices WHERE app_id = $1 AND badge_type = 'normal'`, [
        priced.app_id,
      ]);
      return row.set_price !== stored.set_price;
    });
    await expectStillOnce(any.watchId);
    expect((await watchRow(never.watchId)).fired_at).toBeNull();
    expect(receiver.firedFor(never.watchId)).toEqual([]);
  }, 120_000);

  it('should fire a rank watch once, when the account’s update makes its rank cross the value', async () => {
    const watched = [...Array(100).keys()].map((i) => i + 100).find((id) => !ctx.simulator.universe.isPrivate(id))!;
    await ctx.session(watched); // tracked, never updated: unranked
    const reaches = (
      await call('account.createWatch', session, { kind: 'rank', accountId: watched, leaderboard: 'xp', rank: 1000 }).expect(200)
    ).body.watch;
    expect(reaches).toMatchObject({ direction: 'reaches', rank: 1000, leaderboard: 'xp', accountId: watched });
    const leaves = (
      await call('account.createWatch', session, {
        kind: 'rank',
        accountId: watched,
        leaderboard: 'xp',
        rank: 1000,
        direction: 'leaves',
      }).expect(200)
    ).body.watch;
    expect((await watchRow(reaches.watchId)).last_value).toBeNull();
    await update(watched);
    const fired = await expectFiredOnce(reaches.watchId);
    const [history] = await ctx.dataSource.query(
      `SELECT rank FROM account_rank_history WHERE account_id = $1 AND leaderboard = 'xp' ORDER BY day DESC LIMIT 1`,
      [watched],
    );
    expect(fired).toEqual({ rank: Number(history.rank), previousRank: null });
    // Unranked met "leaves"; ranked within 1000 does not: no crossing into it, only the rank it starts from next time.
    await until('the leaves watch’s rank', async () => (await watchRow(leaves.watchId)).last_value === Number(history.rank));
    expect((await watchRow(leaves.watchId)).fired_at).toBeNull();
    await update(watched);
    await expectStillOnce(reaches.watchId);
    expect(receiver.firedFor(leaves.watchId)).toEqual([]);
  }, 120_000);

  it('should fire a friend badge watch once, when the friend’s update finds a badge level crafted', async () => {
    const watch = (await call('account.createWatch', session, { kind: 'friendBadge', accountId: friend }).expect(200)).body.watch;
    const anyFriend = (await call('account.createWatch', session, { kind: 'friendBadge' }).expect(200)).body.watch;
    expect(anyFriend).toMatchObject({ kind: 'friendBadge', accountId: null, appId: null, firedAt: null });
    // Of an app none of the friend's crafts is of: never fires.
    const otherApp = (
      await call('account.createWatch', session, { kind: 'friendBadge', accountId: friend, appId: 2_000_000_000 }).expect(200)
    ).body.watch;
    const [latest] = await ctx.dataSource.query(`SELECT coalesce(max(id), 0) AS id FROM activity_events WHERE account_id = $1`, [friend]);
    ctx.clock.advance(DAYS_90);
    await update(friend);
    const fired = await expectFiredOnce(watch.watchId);
    const crafts: { badge_id: number; app_id: number; level: number }[] = await ctx.dataSource.query(
      `SELECT b.id AS badge_id, b.app_id, (e.data->'badge'->>'level')::int AS level
         FROM activity_events e JOIN badges b ON b.id = (e.data->'badge'->>'badgeId')::int
        WHERE e.account_id = $1 AND e.event_type = 'badge_crafted' AND e.id > $2 ORDER BY e.id`,
      [friend, latest.id],
    );
    expect(crafts.length).toBeGreaterThan(0);
    expect(fired).toEqual({
      friendAccountId: friend,
      badgeId: `bdg_${crafts[0].badge_id}`,
      appId: crafts[0].app_id,
      level: crafts[0].level,
    });
    expect(await expectFiredOnce(anyFriend.watchId)).toEqual(fired);
    ctx.clock.advance(DAYS_90);
    await update(friend);
    await expectStillOnce(watch.watchId);
    await expectStillOnce(anyFriend.watchId);
    expect((await watchRow(otherApp.watchId)).fired_at).toBeNull();
    // Someone else's stream of the owner saw none of the owner's watches.
    expect(strangerStream.events.filter((e) => e.event === 'watch-fired')).toEqual([]);
    expect(strangerStream.events.some((e) => e.event === 'heartbeat')).toBe(true);
  }, 120_000);

  it('should fire, once the worker is back, a watch whose fact committed while no watch consumer ran', async () => {
    // The consumer alone stops (as in a worker that died): updates and pricing go on committing facts meanwhile.
    await ctx.worker!.get(WatchEvaluator).consumer.stop();
    const [stopped] = await ctx.dataSource.query(
      `SELECT xid::bigint AS xid, id::bigint AS id FROM change_feed_consumers WHERE name = 'watches'`,
    );
    const universe = ctx.simulator.universe;
    const watched = [...Array(100).keys()]
      .map((i) => i + 200)
      .find((id) => !universe.isPrivate(id) && universe.badges(id, universe.tickAt(ctx.clock.now)).playerXp > 0)!;
    await ctx.session(watched); // tracked, never updated: unranked
    const rank = (
      await call('account.createWatch', session, { kind: 'rank', accountId: watched, leaderboard: 'xp', rank: 1000 }).expect(200)
    ).body.watch;
    const [priced] = await ctx.dataSource.query(
      `SELECT app_id FROM app_market_prices WHERE badge_type = 'normal' AND set_price > 0 ORDER BY app_id DESC LIMIT 1`,
    );
    const price = (
      await call('account.createWatch', session, { kind: 'setPrice', appId: priced.app_id, atOrBelowCents: 2_000_000_000 }).expect(200)
    ).body.watch;
    await update(watched);
    ctx.clock.advance(DAYS_90);
    // The first normal set price of the app stored after the consumer stopped: the one the watch must fire on.
    const firstPrice = async () => {
      const [entry] = await ctx.dataSource.query(
        `SELECT (s->>'setPrice')::int AS set_price FROM change_feed f, jsonb_array_elements(f.payload->'sets') s
          WHERE f.kind = 'set-prices' AND (f.xid, f.id) > ($1::bigint, $2::bigint) AND (f.payload->>'appId')::int = $3
            AND s->>'badgeType' = 'normal' AND (s->>'setPrice')::int > 0
          ORDER BY f.xid, f.id LIMIT 1`,
        [stopped.xid, stopped.id, priced.app_id],
      );
      return entry;
    };
    const expected = await until('a set price stored while the consumer is stopped', firstPrice, 60_000);
    await sleep(1500);
    expect(receiver.firedFor(rank.watchId)).toEqual([]);
    expect(receiver.firedFor(price.watchId)).toEqual([]);
    expect((await watchRow(rank.watchId)).fired_at).toBeNull();
    // A new worker process: its consumer goes on from the stored position and handles what it missed.
    await ctx.stopWorker();
    await ctx.startWorker();
    const [history] = await ctx.dataSource.query(
      `SELECT rank FROM account_rank_history WHERE account_id = $1 AND leaderboard = 'xp' ORDER BY day DESC LIMIT 1`,
      [watched],
    );
    expect(await expectFiredOnce(rank.watchId)).toEqual({ rank: Number(history.rank), previousRank: null });
    expect(await expectFiredOnce(price.watchId)).toEqual({ setPrice: expected.set_price });
    await expectStillOnce(rank.watchId);
    await expectStillOnce(price.watchId);
  }, 180_000);
});
