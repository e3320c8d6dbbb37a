import { DonationsService } from '../../src/donations/donations.service';
import { DONOR_TIERS, TIER_FROM_CENTS, maxPageSizeOf, HeldRole } from '../../src/account-records/donor-tiers';
import { AppCardSets } from '../../src/pricing/app-card-sets.service';
import { AppPricer } from '../../src/pricing/app-pricer.service';
import { BadgeArt } from '../../src/pricing/badge-art.service';
import { steamId64Of } from '../../src/account-records/account.enums';
import { PipelineContext, startPipeline } from '../support/pipeline';
import { UNKNOWN_CREATED_AT } from '../../src/account-records/cards/card-values';
import { changesReferenceSql } from '../support/changes-reference';

/** Tracked accounts a board's scope needs for best ranks and milestones in this suite (POPULATED_BOARD_MIN_ACCOUNTS). */
const MIN_ACCOUNTS = 20;
const idOf = (steamId: string) => Number(BigInt(steamId) - 76561197960265728n);
/** Refreshed before the board is populated, then the rest. */
const EARLY = 8;
const ALL = 40;

type Row = { account_id: number } & Record<string, number | string | null>;

/** The global rank of `accountId` on a column, recomputed from the stored rows: 0 for a zero value, else 1 + those ahead. */
function recomputedRank(rows: Row[], column: string, accountId: number): number {
  const own = rows.find((row) => row.account_id === accountId)!;
  const score = Number(own[column]);
  if (score <= 0) return 0;
  return 1 + rows.filter((row) => Number(row[column]) > score || (Number(row[column]) === score && row.account_id < accountId)).length;
}

/**
 * Issue 64: answers that mean what they say. Each answer is compared with a recomputation from the stored rows (or the
 * simulator's catalogue, the platform's truth): card counts and complete sets, donations on the board at once, zero
 * values unranked, best ranks only on populated boards with their totals, rank milestones, page sizes by donor tier,
 * unknown creation dates, app prices, the default chosen role, friend paths naming untracked hops.
 */
describe('answers that mean what they say', () => {
  let ctx: PipelineContext;
  let key: string;
  const post = (path: string, body: Record<string, unknown>, token = key) =>
    ctx.http().post(`/v1/${path}`).set('Authorization', `Bearer ${token}`).send(body);
  const refresh = async (ids: number[], force = false) => {
    for (const accountId of ids) await post('account.queueUpdate', { id: { accountId }, ...(force ? { force: true } : {}) }).expect(204);
    for (const accountId of ids) await ctx.waitForCompletion(accountId, key, 30_000);
  };
  const rows = (): Promise<Row[]> =>
    ctx.dataSource.query('SELECT account_id, xp, donated, awards_given, points_received FROM accounts WHERE updated_at IS NOT NULL');
  const ranksOf = (info: { currentRanks: { leaderboard: string; ranks: string; totals: string }[] }, board: string) =>
    info.currentRanks.find((entry) => entry.leaderboard === board)!;
  const bestOf = (info: { currentBestRanks: { leaderboard: string; ranks: string; totals: string }[] }, board: string) =>
    info.currentBestRanks.find((entry) => entry.leaderboard === board)!;

  beforeAll(async () => {
    ctx = await startPipeline('answers', {
      env: {
        POPULATED_BOARD_MIN_ACCOUNTS: String(MIN_ACCOUNTS),
        PLATFORM_MARKET_CALLS_PER_MINUTE: '600000',
        PRICING_INTERVAL_MS: '3600000',
      },
    });
    key = await ctx.apiKey(1);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'staff')`);
    await ctx.startWorker();
    await refresh(Array.from({ length: EARLY }, (_, i) => i + 1));
  }, 120_000);
  afterAll(() => ctx.close());

  it('should count no best rank while a board holds fewer than its minimum of accounts', async () => {
    for (let accountId = 1; accountId <= EARLY; accountId++) {
      const info = (await post('account.getInfo', { id: { accountId } }).expect(200)).body;
      expect(Number(ranksOf(info, 'xp').totals.split(',')[0])).toBe(EARLY);
      expect(bestOf(info, 'xp')).toEqual({ leaderboard: 'xp', ranks: expect.stringMatching(/^0,/), totals: expect.stringMatching(/^0,/) });
      const [stored] = await ctx.dataSource.query(
        `SELECT ranks, totals FROM account_best_ranks WHERE account_id = $1 AND leaderboard = 'xp'`,
        [accountId],
      );
      expect(stored.ranks[0]).toBe(0);
    }
    await refresh(Array.from({ length: ALL - EARLY }, (_, i) => i + EARLY + 1));
  }, 180_000);

  it('should give a best rank, with its total, once the board is populated', async () => {
    // Account 1 was refreshed while the board held EARLY accounts; refreshed again now that it holds ALL.
    await refresh([1], true);
    const stored = await rows();
    const info = (await post('account.getInfo', { id: { accountId: 1 } }).expect(200)).body;
    const expected = recomputedRank(stored, 'xp', 1);
    expect(ranksOf(info, 'xp').ranks.split(',')[0]).toBe(String(expected));
    expect(bestOf(info, 'xp').ranks.split(',')[0]).toBe(String(expected));
    expect(bestOf(info, 'xp').totals.split(',')[0]).toBe(String(stored.length));
    const [kept] = await ctx.dataSource.query(`SELECT ranks, totals FROM account_best_ranks WHERE account_id = 1 AND leaderboard = 'xp'`);
    expect([kept.ranks[0], kept.totals[0]]).toEqual([expected, stored.length]);
  });

  it('should leave a zero value unranked: no rank, no best rank, rank 0 on the board', async () => {
    const stored = await rows();
    // Nobody gives awards or points on the platform the service reads: every refreshed account holds 0 there.
    expect(stored.every((row) => Number(row.awards_given) === 0)).toBe(true);
    for (const accountId of [1, 2, ALL]) {
      const info = (await post('account.getInfo', { id: { accountId } }).expect(200)).body;
      for (const board of ['awards_given', 'points_received']) {
        expect(ranksOf(info, board).ranks).toBe('0,0,0,0,0');
        expect(bestOf(info, board).ranks).toBe('0,0,0,0,0');
      }
    }
    const page = (await post('leaderboard.getAccountLeaderboard', { leaderboard: 'awards_given', start: 1, end: 10 }).expect(200)).body;
    expect(page.rankedOutOf).toBe(stored.length);
    expect(page.accounts.map((account: { rank: number } | null) => account?.rank ?? 0)).toEqual(Array(10).fill(0));
    const preview = (await post('leaderboard.previewAccountRank', { leaderboard: 'awards_given', id: { accountId: 2 } }).expect(200)).body;
    expect(preview.ownAccount.rank).toBe(0);
  });

  it('should put a donor on the donations board at once, where the profile and the preview put it', async () => {
    const donor = 7;
    await ctx.app.get(DonationsService).record(TIER_FROM_CENTS.tier_2, donor);
    const stored = await rows();
    const expected = recomputedRank(stored, 'donated', donor);
    expect(expected).toBe(1);
    const page = (await post('leaderboard.getAccountLeaderboard', { leaderboard: 'donations', start: 1, end: 3 }).expect(200)).body;
    expect(page.accounts[0]).toMatchObject({ rank: expected, donated: TIER_FROM_CENTS.tier_2, steamId: steamId64Of(donor) });
    expect(page.accounts.slice(1).map((account: { rank: number }) => account.rank)).toEqual([0, 0]);
    const info = (await post('account.getInfo', { id: { accountId: donor } }).expect(200)).body;
    expect(ranksOf(info, 'donations').ranks.split(',')[0]).toBe(String(expected));
    const preview = (await post('leaderboard.previewAccountRank', { leaderboard: 'donations', id: { accountId: donor } }).expect(200)).body;
    expect(preview.ownAccount).toMatchObject({ rank: expected, score: TIER_FROM_CENTS.tier_2 });
  });

  it('should record a rank milestone when a refresh finds an account in a top of a populated board', async () => {
    const donor = 7;
    const [before] = await ctx.dataSource.query(
      `SELECT rank FROM account_rank_history WHERE account_id = $1 AND leaderboard = 'donations' ORDER BY day DESC LIMIT 1`,
      [donor],
    );
    expect(before.rank).toBe(0);
    await refresh([donor], true);
    const stored = await rows();
    const feed = (await post('activity.listAccountFeed', { accountId: donor, eventTypes: ['rank_milestone'] }).expect(200)).body;
    expect(feed.events).toEqual([
      expect.objectContaining({
        accountId: donor,
        eventType: 'rank_milestone',
        rank: {
          leaderboard: 'donations',
          bucket: 'top_10',
          previous: 0,
          current: recomputedRank(stored, 'donated', donor),
          location: { type: 'global' },
        },
      }),
    ]);
    // Every milestone stored agrees with the history it was read from: a rank now inside a top the previous one was not.
    const events: { data: { rank: { leaderboard: string; bucket: string; previous: number; current: number } } }[] =
      await ctx.dataSource.query(`SELECT data FROM activity_events WHERE event_type = 'rank_milestone'`);
    for (const { data } of events) {
      const top = Number(data.rank.bucket.slice('top_'.length));
      expect(data.rank.current).toBeGreaterThan(0);
      expect(data.rank.current).toBeLessThanOrEqual(top);
      expect(data.rank.previous === 0 || data.rank.previous > top).toBe(true);
    }
  });

  it('should size the donor-perk pages by the donor tier that donations and roles give', async () => {
    const donor = 30;
    const token = await ctx.apiKey(donor);
    const [badge] = await ctx.dataSource.query('SELECT b.id, b.app_id FROM badges b WHERE b.app_id IS NOT NULL ORDER BY b.id LIMIT 1');
    const pageSize = async () => {
      const crafters = (await post('badge.listCrafters', { badgeId: `bdg_${badge.id}` }, token).expect(200)).body.maxPageSize;
      const owners = (await post('app.listOwners', { appId: badge.app_id }, token).expect(200)).body.maxPageSize;
      expect(owners).toBe(crafters);
      const [row]: { donated: number; roles: HeldRole[] | null }[] = await ctx.dataSource.query(
        `SELECT donated, (SELECT json_agg(json_build_object('role', role, 'extras', extras)) FROM account_roles WHERE account_id = $1) AS roles
           FROM accounts WHERE account_id = $1`,
        [donor],
      );
      expect(crafters).toBe(maxPageSizeOf(Number(row.donated), row.roles ?? []));
      return crafters;
    };
    const sizes = [await pageSize()];
    let given = 0;
    for (const tier of DONOR_TIERS) {
      await ctx.app.get(DonationsService).record(TIER_FROM_CENTS[tier] - given, donor);
      given = TIER_FROM_CENTS[tier];
      sizes.push(await pageSize());
    }
    expect(sizes).toEqual([25, 100, 250, 500, 1000]);
    // A tier granted by a role's override counts like donations.
    const other = 31;
    const otherToken = await ctx.apiKey(other);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role, extras) VALUES ($1, 'donator', '{"tier":"tier_3"}')`, [other]);
    expect((await post('badge.listCrafters', { badgeId: `bdg_${badge.id}` }, otherToken).expect(200)).body.maxPageSize).toBe(500);
  });

  it('should show a staff account’s role as its chosen role, with its donor tier', async () => {
    const { sessionToken } = await ctx.session(1);
    const settings = (await post('account.getSettings', {}, sessionToken).expect(200)).body;
    expect(settings.chosenRole).toEqual({ role: 'staff', tier: '' });
  });

  it('should leave the creation date of a private account unknown: null on its profile, the epoch on its cards and previews', async () => {
    const stored: { account_id: number; platform_created_at: Date | null; privacy: string }[] = await ctx.dataSource.query(
      'SELECT account_id, platform_created_at, privacy FROM accounts WHERE updated_at IS NOT NULL ORDER BY account_id',
    );
    const hidden = stored.find((row) => row.platform_created_at === null);
    const shown = stored.find((row) => row.platform_created_at !== null)!;
    expect(hidden).toBeDefined();
    expect(ctx.simulator.universe.isPrivate(hidden!.account_id)).toBe(true);
    // The card's createdAt is not nullable on the wire: unknown is the epoch there, never the date first seen.
    const onCard = (row: { platform_created_at: Date | null }) => row.platform_created_at?.toISOString() ?? UNKNOWN_CREATED_AT;
    for (const row of [hidden!, shown]) {
      const info = (await post('account.getInfo', { id: { accountId: row.account_id } }).expect(200)).body;
      expect(info.createdAt).toBe(row.platform_created_at?.toISOString() ?? null);
      const preview = (await post('leaderboard.previewAccountRank', { leaderboard: 'xp', id: { accountId: row.account_id } }).expect(200))
        .body;
      expect(preview.ownAccount.createdAt).toBe(onCard(row));
    }
    const page = (await post('leaderboard.getAccountLeaderboard', { leaderboard: 'xp', start: 1, end: ALL }).expect(200)).body;
    for (const card of page.accounts.filter(Boolean)) {
      const row = stored.find((r) => steamId64Of(r.account_id) === card.steamId)!;
      expect(card.createdAt).toBe(onCard(row));
    }
  });

  it('should take card counts and complete sets from the platform’s card catalogue', async () => {
    const read = await ctx.worker!.get(AppCardSets).refreshDue(10_000);
    expect(read).toBeGreaterThan(0);
    const catalogue = ctx.simulator.universe.catalogue;
    const apps: { app_id: number; classes: number; cards: number }[] = await ctx.dataSource.query(
      'SELECT app_id, classes, cards FROM app_card_counts ORDER BY app_id',
    );
    for (const app of apps) expect(app.cards).toBe(catalogue.byId(app.app_id)!.cards.length);
    // The sets were undercounted by sightings: some app is known from fewer cards than its set has.
    expect(apps.some((app) => app.classes < app.cards)).toBe(true);
    for (const app of apps.slice(0, 10)) {
      const badges = (await post('app.listBadges', { appId: app.app_id }).expect(200)).body.badges;
      for (const badge of badges) expect(badge.cardCount).toBe(catalogue.byId(app.app_id)!.cards.length);
    }
    // The pricing job prices the whole set the platform lists.
    const first = catalogue.byId(apps[0].app_id)!;
    expect(await ctx.worker!.get(AppPricer).cardNames(first.appId)).toEqual(
      first.cards.map((card) => `${first.appId}-${card}`).sort((a, b) => (a < b ? -1 : 1)),
    );
    // Complete sets: one copy of every card of the platform's set.
    const holders: { account_id: number }[] = await ctx.dataSource.query(
      `SELECT account_id FROM inventory_items WHERE kind = 'card' GROUP BY account_id ORDER BY count(*) DESC LIMIT 3`,
    );
    for (const { account_id: accountId } of holders) {
      const token = await ctx.apiKey(accountId);
      const sets = (await post('account.listInventorySets', {}, token).expect(200)).body.sets as {
        appId: number;
        normal: { name: string; amount: number }[];
        normalSets: number;
      }[];
      for (const set of sets) {
        const size = catalogue.byId(set.appId)!.cards.length;
        const expected = set.normal.length >= size ? Math.min(...set.normal.map((card) => card.amount)) : 0;
        expect({ appId: set.appId, normalSets: set.normalSets }).toEqual({ appId: set.appId, normalSets: expected });
      }
    }
  });

  it('should name and picture each badge as the platform’s badge page of its lowest level held shows it', async () => {
    expect(await ctx.worker!.get(BadgeArt).refreshDue(10_000)).toBeGreaterThan(0);
    const universe = ctx.simulator.universe;
    // Recomputed from the stored rows: each held badge's lowest level among its public tracked holders, whose art is
    // the simulator's (the platform's truth) at that level. No time passed since those holders were refreshed.
    const stored: {
      id: number;
      app_id: number | null;
      platform_badge_id: number;
      is_foil: boolean;
      name: string;
      image: string;
      level: number | null;
    }[] = await ctx.dataSource.query(
      `SELECT b.id, b.app_id, b.platform_badge_id, b.is_foil, b.name, b.image,
                (SELECT min(ab.level) FROM account_badges ab JOIN accounts a ON a.account_id = ab.account_id
                  WHERE ab.badge_id = b.id AND a.privacy = 'public') AS level
           FROM badges b JOIN badge_holder_stats s ON s.badge_id = b.id AND s.holders > 0 ORDER BY b.id`,
    );
    const expected = (badge: (typeof stored)[number]) => {
      if (badge.level === null) return { name: '', image: '' };
      const art = universe.badgeArt({ appId: badge.app_id ?? 0, badgeId: badge.platform_badge_id, foil: badge.is_foil }, badge.level);
      return { name: art.name, image: `${art.iconHash}.png` };
    };
    for (const badge of stored)
      expect({ id: badge.id, name: badge.name, image: badge.image }).toEqual({ id: badge.id, ...expected(badge) });
    expect(stored.filter((badge) => badge.app_id !== null && badge.name !== '').length).toBeGreaterThan(10);
    expect(stored.some((badge) => badge.app_id === null && badge.name !== '')).toBe(true);
    // Names the page escapes come back as the platform wrote them.
    expect(stored.some((badge) => badge.name.includes(' & '))).toBe(true);
    const byId = new Map(stored.map((badge) => [`bdg_${badge.id}`, badge]));
    // On the wire a badge not read yet keeps the name derived from its app (or its special id), and no image.
    const onWire = (badge: (typeof stored)[number]) =>
      badge.level === null ? { name: expect.stringMatching(/ Badge$|^Community badge #/), image: '' } : expected(badge);
    // Every wire record that carries a badge's name and image: the catalogue of an app, the badge boards, a holder's badges.
    const board = (await post('leaderboard.listBadges', {}).expect(200)).body.badges as { badgeId: string; name: string; image: string }[];
    expect(board.length).toBe(stored.length);
    for (const badge of board)
      expect({ id: badge.badgeId, name: badge.name, image: badge.image }).toEqual({
        id: badge.badgeId,
        ...onWire(byId.get(badge.badgeId)!),
      });
    const named = stored.find((badge) => badge.app_id !== null && badge.name !== '')!;
    const inApp = (await post('app.listBadges', { appId: named.app_id }).expect(200)).body.badges as {
      badgeId: string;
      name: string;
      badgeImage: string;
    }[];
    expect(inApp.find((badge) => badge.badgeId === `bdg_${named.id}`)).toMatchObject({ name: named.name, badgeImage: named.image });
    const [holder] = await ctx.dataSource.query('SELECT account_id FROM account_badges WHERE badge_id = $1 LIMIT 1', [named.id]);
    const held = (
      await post('account.listBadges', { id: { accountId: holder.account_id }, order: { by: 'xp', direction: 'desc' }, page: 1 }).expect(
        200,
      )
    ).body.badges as { badgeId: string; name: string; badgeImage: string }[];
    for (const badge of held) {
      const row = byId.get(badge.badgeId)!;
      expect({ id: badge.badgeId, name: badge.name, image: badge.badgeImage }).toEqual({
        id: badge.badgeId,
        ...onWire(row),
      });
    }
  });

  it('should price an account’s apps by their card sets', async () => {
    const [owned] = await ctx.dataSource.query('SELECT account_id, app_id FROM account_apps ORDER BY account_id, app_id LIMIT 1');
    await ctx.dataSource.query(
      `INSERT INTO app_market_prices (app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume, card_average_price,
                                      set_price, buy_order_average_price, set_buy_order_price, updated_at)
       VALUES ($1, 'normal', 6, 0, 0, 10, 20, 123, 9, 54, now()), ($1, 'foil', 6, 0, 0, 1, 200, 1200, 90, 540, now())`,
      [owned.app_id],
    );
    const res = (
      await post('account.listApps', { id: { accountId: owned.account_id }, order: { by: 'appId', direction: 'asc' } }).expect(200)
    ).body;
    const prices: { app_id: number; price: number }[] = await ctx.dataSource.query(
      `SELECT aa.app_id, COALESCE(m.set_price, 0) AS price FROM account_apps aa
         LEFT JOIN app_market_prices m ON m.app_id = aa.app_id AND m.badge_type = 'normal'
        WHERE aa.account_id = $1 ORDER BY aa.app_id LIMIT $2`,
      [owned.account_id, res.apps.length],
    );
    expect(res.apps.map((app: { id: number; price: number }) => [app.id, app.price])).toEqual(prices.map((p) => [p.app_id, p.price]));
    expect(res.apps.find((app: { id: number }) => app.id === owned.app_id).price).toBe(123);
  });

  it('should name every hop of a friend path, tracked or not', async () => {
    // Two tracked accounts whose friend lists both name an account the service does not track.
    const [pair] = await ctx.dataSource.query(
      `SELECT a.account_id AS a, b.account_id AS b, a.friend_account_id AS via
         FROM account_friends a JOIN account_friends b ON b.friend_account_id = a.friend_account_id AND b.account_id > a.account_id
        WHERE NOT EXISTS (SELECT 1 FROM accounts t WHERE t.account_id = a.friend_account_id AND t.updated_at IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM account_friends d WHERE d.account_id = a.account_id AND d.friend_account_id = b.account_id)
          AND NOT EXISTS (SELECT 1 FROM account_friends d WHERE d.account_id = b.account_id AND d.friend_account_id = a.account_id)
        ORDER BY a.account_id, b.account_id LIMIT 1`,
    );
    expect(pair).toBeDefined();
    const res = (
      await post('account.findFriendPath', { from: { id: { accountId: pair.a } }, to: { id: { accountId: pair.b } } }).expect(200)
    ).body;
    expect(res.found).toBe(true);
    const twoHops = res.paths.filter((path: { distance: number }) => path.distance === 2);
    expect(twoHops.length).toBeGreaterThan(0);
    const ids = twoHops.map((path: { steamIds: string[] }) => path.steamIds);
    expect(new Set(ids.map((steamIds: string[]) => steamIds.join())).size).toBe(ids.length);
    expect(ids).toContainEqual([steamId64Of(pair.a), steamId64Of(pair.via), steamId64Of(pair.b)]);
    for (const path of twoHops) {
      path.path.forEach((card: { steamId: string } | null, i: number) => {
        if (card) expect(card.steamId).toBe(path.steamIds[i]);
      });
    }
    const viaPath = twoHops.find((path: { steamIds: string[] }) => path.steamIds[1] === steamId64Of(pair.via));
    expect(viaPath.path[1]).toBeNull();
  });

  it('should withhold a hidden account between the ends of a friend path, card and id, and show hidden ends', async () => {
    // Two tracked accounts, not friends, with a tracked friend in common (either list naming the other).
    const [trio] = await ctx.dataSource.query(
      `WITH edges AS (SELECT account_id AS x, friend_account_id AS y FROM account_friends
                      UNION SELECT friend_account_id, account_id FROM account_friends),
            tracked AS (SELECT account_id FROM accounts WHERE updated_at IS NOT NULL)
       SELECT e1.x AS a, e2.y AS b, e1.y AS via FROM edges e1 JOIN edges e2 ON e2.x = e1.y
        WHERE e1.x < e2.y AND e1.x IN (SELECT account_id FROM tracked) AND e2.y IN (SELECT account_id FROM tracked)
          AND e1.y IN (SELECT account_id FROM tracked)
          AND NOT EXISTS (SELECT 1 FROM edges d WHERE d.x = e1.x AND d.y = e2.y)
        ORDER BY e1.x, e2.y, e1.y LIMIT 1`,
    );
    expect(trio).toBeDefined();
    // As the account itself hides: its own session, its other settings as they are. The API's card replica learns it
    // from the change feed (no statement of the path's own asks).
    const hide = async (accountId: number, hidden: boolean) => {
      const { sessionToken } = await ctx.session(accountId);
      const settings = (await post('account.getSettings', {}, sessionToken).expect(200)).body;
      await post('account.updateSettings', { hidden, language: settings.language, vanity: settings.vanity }, sessionToken).expect(204);
    };
    const find = async () =>
      (
        await post('account.findFriendPath', {
          from: { id: { accountId: trio.a } },
          to: { id: { accountId: trio.b } },
          maxPaths: 50,
        }).expect(200)
      ).body as { found: boolean; paths: { distance: number; path: ({ steamId: string } | null)[]; steamIds: (string | null)[] }[] };
    const shown = await find();
    expect(shown.paths.some((path) => path.steamIds[1] === steamId64Of(trio.via) && path.path[1]?.steamId === steamId64Of(trio.via))).toBe(
      true,
    );
    await hide(trio.via, true);
    await hide(trio.a, true);
    try {
      const withheld = await find();
      // The same paths, the hidden hop unnamed wherever it stood; the hidden end still shown.
      expect(withheld.paths.map((path) => path.distance)).toEqual(shown.paths.map((path) => path.distance));
      expect(JSON.stringify(withheld)).not.toContain(steamId64Of(trio.via));
      withheld.paths.forEach((path, i) => {
        expect(path.steamIds).toEqual(shown.paths[i].steamIds.map((id) => (id === steamId64Of(trio.via) ? null : id)));
        expect(path.steamIds[0]).toBe(steamId64Of(trio.a));
        expect(path.path[0]?.steamId).toBe(steamId64Of(trio.a));
        path.steamIds.forEach((id, j) => {
          if (id === null) expect(path.path[j]).toBeNull();
        });
      });
    } finally {
      await hide(trio.via, false);
      await hide(trio.a, false);
    }
  });

  it('should name the untracked hops of an owner’s friend path, never a hidden account', async () => {
    // A caller and an owner, both tracked, not friends, whose lists both name an account the service does not track;
    // the owner's rarest item, so it is listed on the first page.
    const [pair] = await ctx.dataSource.query(
      `SELECT a.account_id AS a, b.account_id AS b FROM account_friends a JOIN account_friends b ON b.friend_account_id = a.friend_account_id AND b.account_id <> a.account_id
        WHERE NOT EXISTS (SELECT 1 FROM accounts t WHERE t.account_id = a.friend_account_id AND t.updated_at IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM account_friends d WHERE d.account_id = a.account_id AND d.friend_account_id = b.account_id)
          AND NOT EXISTS (SELECT 1 FROM account_friends d WHERE d.account_id = b.account_id AND d.friend_account_id = a.account_id)
          AND EXISTS (SELECT 1 FROM inventory_items i WHERE i.account_id = b.account_id)
        ORDER BY a.account_id, b.account_id LIMIT 1`,
    );
    expect(pair).toBeDefined();
    const [item] = await ctx.dataSource.query(
      `SELECT i.class_id FROM inventory_items i JOIN item_class_owners o ON o.class_id = i.class_id
        WHERE i.account_id = $1 ORDER BY o.owners, i.class_id LIMIT 1`,
      [pair.b],
    );
    const token = await ctx.apiKey(pair.a);
    const ownerOf = async () => {
      const res = (await post('item.findOwners', { itemIds: [Number(item.class_id)], ownersPerItem: 25, maxDepth: 2 }, token).expect(200))
        .body;
      return res.items[0].owners.find((owner: { steamIds?: string[] }) => owner.steamIds?.at(-1) === steamId64Of(pair.b)) as
        | { account: { steamId: string } | null; distance: number; path: ({ steamId: string } | null)[]; steamIds: (string | null)[] }
        | undefined;
    };
    const owner = await ownerOf();
    expect(owner).toMatchObject({ pathFound: true, distance: 2 });
    expect(owner!.steamIds).toHaveLength(3);
    expect(owner!.steamIds[0]).toBe(steamId64Of(pair.a));
    // Each hop is named, tracked or not, and each pair of hops is a stored friendship (either list names the other).
    const trackedRows: { account_id: number }[] = await ctx.dataSource.query(
      'SELECT account_id FROM accounts WHERE updated_at IS NOT NULL',
    );
    const tracked = new Set(trackedRows.map((row) => steamId64Of(row.account_id)));
    owner!.path.forEach((card, i) => {
      expect(owner!.steamIds[i]).not.toBeNull();
      if (card) expect(card.steamId).toBe(owner!.steamIds[i]);
      else expect(tracked.has(owner!.steamIds[i]!)).toBe(false);
    });
    expect(owner!.path[1]).toBeNull();
    for (let i = 0; i + 1 < owner!.steamIds.length; i++) {
      const [x, y] = [idOf(owner!.steamIds[i]!), idOf(owner!.steamIds[i + 1]!)];
      const [edge] = await ctx.dataSource.query(
        'SELECT 1 FROM account_friends WHERE (account_id = $1 AND friend_account_id = $2) OR (account_id = $2 AND friend_account_id = $1)',
        [x, y],
      );
      expect(edge).toBeDefined();
    }
    // An owner that chose to be hidden keeps its place, without a card and without an id.
    await ctx.dataSource.query(
      `INSERT INTO account_settings (account_id, email, hidden) VALUES ($1, 'hidden@users.invalid', true)
       ON CONFLICT (account_id) DO UPDATE SET hidden = true`,
      [pair.b],
    );
    try {
      const res = (await post('item.findOwners', { itemIds: [Number(item.class_id)], ownersPerItem: 25, maxDepth: 2 }, token).expect(200))
        .body;
      const text = JSON.stringify(res);
      expect(text).not.toContain(steamId64Of(pair.b));
      const hidden = res.items[0].owners.filter((o: { account: unknown; pathFound: boolean }) => o.account === null && o.pathFound);
      expect(hidden.length).toBeGreaterThan(0);
      for (const o of hidden) expect(o.steamIds.at(-1)).toBeNull();
    } finally {
      await ctx.dataSource.query('UPDATE account_settings SET hidden = false WHERE account_id = $1', [pair.b]);
    }
  });

  it('should list by rank the accounts that fell without being refreshed', async () => {
    // The account that passes the most others over a year of simulated time, passing accounts nobody refreshes again.
    const universe = ctx.simulator.universe;
    const later = universe.tickAt(ctx.clock.now + 365 * 86_400_000);
    const stored = await rows();
    const riser = stored
      .filter((row) => row.account_id !== 1 && row.account_id !== 7)
      .map((row) => {
        const [from, to] = [Number(row.xp), universe.badges(row.account_id, later).playerXp];
        return { accountId: row.account_id, passes: stored.filter((other) => Number(other.xp) > from && Number(other.xp) < to).length };
      })
      .sort((a, b) => b.passes - a.passes)[0];
    expect(riser.passes).toBeGreaterThan(0);
    expect(recomputedRank(stored, 'xp', riser.accountId)).toBeGreaterThan(1);
    ctx.clock.advance(365 * 86_400_000);
    await refresh([riser.accountId], true);
    const body = { leaderboard: 'xp', window: '24h', metric: 'rank', direction: 'declines', limit: 100 };
    const got = (await post('leaderboard.getChanges', body).expect(200)).body.changes as Record<string, unknown>[];
    const expected: Record<string, unknown>[] = await ctx.dataSource.query(changesReferenceSql('xp', 'rank', 'declines'), [
      'xp',
      new Date(Date.now() - 86_400_000),
      null,
      100,
      0,
    ]);
    const pick = ({ accountId, oldRank, newRank, oldScore, newScore }: Record<string, unknown>) => ({
      accountId,
      oldRank,
      newRank,
      oldScore,
      newScore,
    });
    expect(got.map(pick)).toEqual(expected.map(pick));
    // Among them, accounts refreshed once only (no update in the window that was not their first): they did not move.
    const once: { account_id: number }[] = await ctx.dataSource.query(
      `SELECT account_id FROM account_updates WHERE status = 'completed' GROUP BY account_id HAVING count(*) = 1`,
    );
    const unrefreshed = new Set(once.map((row) => row.account_id));
    expect(got.filter((change) => unrefreshed.has(change.accountId as number)).length).toBeGreaterThan(0);
    for (const change of got) expect(change.rankDelta).toBe((change.oldRank as number) - (change.newRank as number));
  });

  it('should leave out of the changes from a snapshot an account hidden since it was computed', async () => {
    // By rank: a page of a snapshot, which left out who was hidden when it was computed (seconds ago, still fresh).
    const body = { leaderboard: 'xp', window: '24h', metric: 'rank', direction: 'declines', limit: 100 };
    const listed = async () =>
      ((await post('leaderboard.getChanges', body).expect(200)).body.changes as { accountId: number }[]).map((c) => c.accountId);
    const before = await listed();
    expect(before.length).toBeGreaterThan(1);
    const hider = before[0];
    await ctx.dataSource.query(
      `INSERT INTO account_settings (account_id, email, hidden) VALUES ($1, $2, true) ON CONFLICT (account_id) DO UPDATE SET hidden = true`,
      [hider, `hidden-${hider}@users.invalid`],
    );
    try {
      expect(await listed()).toEqual(before.filter((accountId) => accountId !== hider));
    } finally {
      await ctx.dataSource.query('UPDATE account_settings SET hidden = false WHERE account_id = $1', [hider]);
    }
  });

  it('should show a score of 0 as unranked in the changes, and entering the board as a climb', async () => {
    // An account without a foil badge whose next refresh finds one (the simulator's truth, a year after the last ones).
    const universe = ctx.simulator.universe;
    const now = universe.tickAt(ctx.clock.now);
    const foils = (accountId: number) => universe.badges(accountId, now).badges.filter((badge) => badge.borderColor === 1).length;
    const before: Row[] = await ctx.dataSource.query('SELECT account_id, foil_badges FROM accounts WHERE updated_at IS NOT NULL');
    const newcomer = before.find((row) => Number(row.foil_badges) === 0 && foils(row.account_id) > 0);
    expect(newcomer).toBeDefined();
    const oldScored = before.filter((row) => Number(row.foil_badges) > 0).length;
    const [{ movers }] = await ctx.dataSource.query(
      `SELECT count(DISTINCT account_id)::int AS movers FROM account_updates u WHERE status = 'completed'
          AND EXISTS (SELECT 1 FROM account_updates p WHERE p.account_id = u.account_id AND p.status = 'completed' AND p.finished_at < u.finished_at)`,
    );
    await refresh([newcomer!.account_id], true);
    const after: Row[] = await ctx.dataSource.query('SELECT account_id, foil_badges FROM accounts WHERE updated_at IS NOT NULL');
    const newRank = recomputedRank(after, 'foil_badges', newcomer!.account_id);
    expect(newRank).toBeGreaterThan(0);
    const pick = ({ accountId, oldRank, newRank, rankDelta, oldScore, newScore }: Record<string, unknown>) => ({
      accountId,
      oldRank,
      newRank,
      rankDelta,
      oldScore,
      newScore,
    });
    for (const [metric, topFilter] of [
      ['rank', undefined],
      ['score', undefined],
      ['rank', '1000'],
    ] as const) {
      const body = {
        leaderboard: 'foil_badges',
        window: '24h',
        metric,
        direction: 'improvements',
        limit: 1000,
        ...(topFilter ? { topFilter } : {}),
      };
      const got = (await post('leaderboard.getChanges', body).expect(200)).body.changes as Record<string, unknown>[];
      const expected: Record<string, unknown>[] = await ctx.dataSource.query(changesReferenceSql('foil_badges', metric, 'improvements'), [
        'foilBadges',
        new Date(Date.now() - 86_400_000),
        topFilter ? Number(topFilter) : null,
        1000,
        0,
      ]);
      expect({ body, got: got.map(pick) }).toEqual({ body, got: expected.map(pick) });
      // Unranked at the window's start (0, as on the board and the profile), ranked now; the climb counts from the
      // place after the old board's last ranked account (at least those ranked before the refresh less the movers).
      const entry = got.map(pick).find((change) => change.accountId === newcomer!.account_id);
      expect(entry).toEqual({
        accountId: newcomer!.account_id,
        oldRank: 0,
        newRank,
        rankDelta: expect.any(Number),
        oldScore: 0,
        newScore: Number(after.find((row) => row.account_id === newcomer!.account_id)!.foil_badges),
      });
      expect(entry!.rankDelta).toBeGreaterThanOrEqual(oldScored - movers + 1 - newRank);
      expect(entry!.rankDelta).toBeGreaterThan(0);
      for (const change of got) {
        if (change.oldScore === 0) expect(change.oldRank).toBe(0);
        if (change.newScore === 0) expect(change.newRank).toBe(0);
      }
    }
    const profile = (await post('account.getInfo', { id: { accountId: newcomer!.account_id } }).expect(200)).body;
    expect(ranksOf(profile, 'foil_badges').ranks.split(',')[0]).toBe(String(newRank));
  });
});
