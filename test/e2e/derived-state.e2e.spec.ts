import { randomUUID } from 'node:crypto';
import { AccountWriter } from '../../src/refresh/account-writer';
import { PlatformSnapshot, PlatformSnapshotReader } from '../../src/refresh/platform-snapshot';
import { rebuildDerivedState } from '../../src/derived/derived-state';
import { startPipeline, PipelineContext } from '../support/pipeline';

/** The platform totals as a full scan of the base tables finds them (what stats.getStats summed per request). */
const RECOMPUTED_TOTALS = `
  SELECT count(*)::int AS "totalAccounts", count(*)::int AS "accountsAdded", count(updated_at)::int AS "accountsUpdated",
         (SELECT COALESCE(sum(playtime), 0)::int FROM account_apps) AS "appPlaytime",
         ${[
           ['apps', 'apps'],
           ['awardsGiven', 'awards_given'],
           ['awardsReceived', 'awards_received'],
           ['badges', 'badges'],
           ['bans', 'bans'],
           ['foilBadges', 'foil_badges'],
           ['friends', 'friends'],
           ['gameBans', 'game_bans'],
           ['level', 'level'],
           ['normalBadges', 'normal_badges'],
           ['playtime', 'playtime'],
           ['pointsGiven', 'points_given'],
           ['pointsReceived', 'points_received'],
           ['steamSetsScore', 'site_score'],
           ['vacBans', 'vac_bans'],
           ['xp', 'xp'],
         ]
           .map(([field, column]) => `COALESCE(sum(${column}), 0)::int AS "${field}"`)
           .join(', ')}
    FROM accounts`;

const RECOMPUTED_HOLDERS = `
  SELECT badge_id, count(*)::int AS holders, max(level) AS highest_level, min(completion_time) AS first_completion,
         max(completion_time) AS last_completion
    FROM account_badges GROUP BY badge_id ORDER BY badge_id`;
const MAINTAINED_HOLDERS = `
  SELECT badge_id, holders, highest_level, first_completion, last_completion
    FROM badge_holder_stats WHERE holders > 0 ORDER BY badge_id`;

const RECOMPUTED_CARDS = `
  SELECT app_id, class_id, count(*)::int AS owners FROM inventory_items
   WHERE kind = 'card' AND app_id IS NOT NULL GROUP BY app_id, class_id ORDER BY app_id, class_id`;
const MAINTAINED_CARDS = 'SELECT app_id, class_id, owners FROM app_card_classes WHERE owners > 0 ORDER BY app_id, class_id';
const RECOMPUTED_CARD_COUNTS = `
  SELECT app_id, count(DISTINCT class_id)::int AS classes FROM inventory_items
   WHERE kind = 'card' AND app_id IS NOT NULL GROUP BY app_id ORDER BY app_id`;
const MAINTAINED_CARD_COUNTS = 'SELECT app_id, classes FROM app_card_counts WHERE classes <> 0 ORDER BY app_id';

const RECOMPUTED_LEADERS = `
  (SELECT DISTINCT ON (level) 'xp' AS board, level AS value, account_id, xp AS score FROM accounts
    WHERE updated_at IS NOT NULL ORDER BY level, xp DESC, account_id)
  UNION ALL
  (SELECT DISTINCT ON (apps) 'apps', apps, account_id, apps FROM accounts WHERE updated_at IS NOT NULL ORDER BY apps, account_id)
  ORDER BY board, value`;
const MAINTAINED_LEADERS = 'SELECT board, value, account_id, score FROM board_value_leaders ORDER BY board, value';

/** The leader of each level bucket as leaderboard.getBucketLeaders computed it per request (visible accounts only). */
const RECOMPUTED_BUCKET_LEADERS = `
  SELECT DISTINCT ON (a.level / $1) a.level / $1 AS bucket, a.account_id, a.xp AS score FROM accounts a
   WHERE a.updated_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM account_settings s WHERE s.account_id = a.account_id AND s.hidden)
   ORDER BY a.level / $1, a.xp DESC, a.account_id`;

const MINE = ['platform-totals', 'badge-holder-stats', 'app-card-classes', 'board-value-leaders'];

describe('derived state: platform totals, badge holder statistics, card classes', () => {
  let ctx: PipelineContext;
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}` });
  const queue = (accountId: number, force = false) =>
    ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId }, force }).expect(204);

  beforeAll(async () => {
    ctx = await startPipeline('derived');
    key = await ctx.apiKey(1);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'staff')`);
    await ctx.startWorker();
  });
  afterAll(() => ctx.close());

  /** Stores a doctored snapshot through the worker's writer, as if the platform had reported it. */
  async function writeDoctored(accountId: number, doctor: (snapshot: PlatformSnapshot) => PlatformSnapshot): Promise<void> {
    const snapshot = await ctx.worker!.get(PlatformSnapshotReader).read(accountId, async () => undefined);
    await ctx.worker!.get(AccountWriter).write(accountId, randomUUID(), doctor(snapshot), [], 3600);
  }

  async function expectMaintainedEqualsRecomputed(): Promise<void> {
    const { body } = await ctx.http().post('/v1/stats.getStats').set(auth()).expect(200);
    const { $schema, ...totals } = body;
    const [recomputed] = await ctx.dataSource.query(RECOMPUTED_TOTALS);
    expect(totals).toEqual(recomputed);
    expect(await ctx.dataSource.query(MAINTAINED_HOLDERS)).toEqual(await ctx.dataSource.query(RECOMPUTED_HOLDERS));
    expect(await ctx.dataSource.query(MAINTAINED_CARDS)).toEqual(await ctx.dataSource.query(RECOMPUTED_CARDS));
    expect(await ctx.dataSource.query(MAINTAINED_CARD_COUNTS)).toEqual(await ctx.dataSource.query(RECOMPUTED_CARD_COUNTS));
    expect(await ctx.dataSource.query(MAINTAINED_LEADERS)).toEqual(await ctx.dataSource.query(RECOMPUTED_LEADERS));
  }

  it('should keep the totals and holder statistics equal to a recomputation through a burst of updates', async () => {
    const first = Array.from({ length: 12 }, (_, i) => i + 2);
    await Promise.all(first.map((accountId) => queue(accountId)));
    for (const accountId of first) await ctx.waitForCompletion(accountId, key, 20_000);
    await expectMaintainedEqualsRecomputed();

    // Time passes: badges are crafted and levelled, libraries and inventories change; half the accounts update again.
    ctx.clock.advance(120 * 86_400_000);
    const again = first.slice(0, 6);
    await Promise.all(again.map((accountId) => queue(accountId, true)));
    // Meanwhile badges are lost and lowered (the simulator never takes one away): one account loses every badge and
    // its inventory, another drops a level on each badge and completes it later, loses half its cards, some xp and
    // an app.
    const [lost, lowered] = first.slice(6).filter((id) => !ctx.simulator.universe.isPrivate(id));
    await Promise.all([
      writeDoctored(lost, (s) => ({
        ...s,
        badges: { ...s.badges, badges: [] },
        inventory: s.inventory.visibility === 'public' ? { ...s.inventory, items: [] } : s.inventory,
      })),
      writeDoctored(lowered, (s) => ({
        ...s,
        badges: {
          ...s.badges,
          badges: s.badges.badges.map((b) => ({ ...b, level: Math.max(1, b.level - 1), completionTime: b.completionTime + 86_400 })),
          // Less xp at the same level: a per-level leader may have to give way.
          playerXp: s.badges.playerXp - 1,
        },
        games: s.games.visibility === 'public' ? { ...s.games, gameCount: s.games.gameCount - 1 } : s.games,
        inventory: s.inventory.visibility === 'public' ? { ...s.inventory, items: s.inventory.items.filter((_, i) => i % 2) } : s.inventory,
      })),
    ]);
    for (const accountId of again) await ctx.waitForCompletion(accountId, key, 20_000);
    await expectMaintainedEqualsRecomputed();
    // Both paths were taken: badges nobody holds any more, card classes nobody owns any more.
    const [{ badges, cards }] = await ctx.dataSource.query(
      `SELECT (SELECT count(*)::int FROM badge_holder_stats WHERE holders = 0) AS badges,
              (SELECT count(*)::int FROM app_card_classes WHERE owners = 0) AS cards`,
    );
    expect(badges).toBeGreaterThan(0);
    expect(cards).toBeGreaterThan(0);

    // The account gets its badges back.
    await writeDoctored(lost, (s) => s);
    await expectMaintainedEqualsRecomputed();
  }, 90_000);

  it('should serve the maintained statistics in the badge listings', async () => {
    const holders: { badge_id: number; holders: number; highest_level: number; first_completion: Date; last_completion: Date }[] =
      await ctx.dataSource.query(RECOMPUTED_HOLDERS);
    const listed = await ctx.http().post('/v1/leaderboard.listBadges').set(auth()).expect(200);
    expect(listed.body.badges.map((b: { badgeId: string }) => b.badgeId).sort()).toEqual(holders.map((h) => `bdg_${h.badge_id}`).sort());
    for (const badge of listed.body.badges) {
      const expected = holders.find((h) => `bdg_${h.badge_id}` === badge.badgeId)!;
      expect(badge).toMatchObject({
        trackedHolders: expected.holders,
        highestLevel: expected.highest_level,
        firstCompletion: expected.first_completion.toISOString(),
        lastCompletion: expected.last_completion.toISOString(),
      });
    }
    const [{ app_id: appId, cards }] = await ctx.dataSource.query(
      `SELECT app_id, count(DISTINCT class_id)::int AS cards FROM inventory_items WHERE kind = 'card' AND app_id IS NOT NULL
        GROUP BY app_id ORDER BY 2 DESC, 1 LIMIT 1`,
    );
    const app = await ctx.http().post('/v1/app.listBadges').set(auth()).send({ appId }).expect(200);
    for (const badge of app.body.badges) expect(badge.cardCount).toBe(cards);
  });

  it('should answer leaderboard.listBadges as of the last commit although it is rendered once for all callers', async () => {
    type Listed = {
      badgeId: string;
      appId: number;
      appName: string;
      name: string;
      highestLevel: number;
      trackedHolders: number;
      price: number;
    };
    const id = (badge: Listed) => Number(badge.badgeId.slice('bdg_'.length));
    const list = async () => {
      const res = await ctx.http().post('/v1/leaderboard.listBadges').set(auth()).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body.$schema).toBe('http://api.test/schemas/V1LeaderboardListBadgesResponseBody.json');
      return { text: res.text, badges: res.body.badges as Listed[] };
    };
    const before = await list();
    expect((await list()).text).toBe(before.text);
    const [first, second] = before.badges.filter((badge) => badge.appId > 0);
    const [{ name: appName }] = await ctx.dataSource.query('SELECT name FROM apps WHERE app_id = $1', [second.appId]);
    const [{ name: badgeName }] = await ctx.dataSource.query('SELECT name FROM badges WHERE id = $1', [id(second)]);
    // An app the pricing job never enrols (no card of it is held), with a badge, holders and a set price.
    const newApp = 987_654_321;

    // Each input of the listing changed in one commit: statistics, a badge, an app, and a badge of a new app with its price.
    await ctx.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE badge_holder_stats SET highest_level = highest_level + 7 WHERE badge_id = $1', [id(first)]);
      await manager.query(`UPDATE badges SET name = 'Curated name' WHERE id = $1`, [id(second)]);
      await manager.query(`UPDATE apps SET name = name || ' (renamed)' WHERE app_id = $1`, [second.appId]);
      await manager.query(`INSERT INTO apps (app_id, name, icon) VALUES ($1, 'New app', '')`, [newApp]);
      const [{ id: badgeId }] = await manager.query(
        `INSERT INTO badges (badge_key, app_id, platform_badge_id, is_foil, scarcity) VALUES ($1, $2, 1, false, 5) RETURNING id`,
        [`app:${newApp}:normal`, newApp],
      );
      await manager.query(
        `INSERT INTO badge_holder_stats (badge_id, holders, highest_level, first_completion, last_completion) VALUES ($1, 1, 1, now(), now())`,
        [badgeId],
      );
      await manager.query(
        `INSERT INTO app_market_prices (app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume, card_average_price,
                                        set_price, buy_order_average_price, set_buy_order_price, updated_at)
         VALUES ($1, 'normal', 5, 0, 0, 1, 10, 4321, 9, 45, now())`,
        [newApp],
      );
    });
    const changed = await list();
    const listed = (badge: Listed) => changed.badges.find((b) => b.badgeId === badge.badgeId);
    expect(listed(first)!.highestLevel).toBe(first.highestLevel + 7);
    expect(listed(second)).toMatchObject({ name: 'Curated name', appName: `${appName} (renamed)` });
    expect(changed.badges.find((b) => b.appId === newApp)).toMatchObject({ appName: 'New app', price: 4321 });

    // A badge nobody holds any more leaves the listing; then everything is put back as it was.
    await ctx.dataSource.query('UPDATE badge_holder_stats SET holders = 0 WHERE badge_id = $1', [id(first)]);
    expect((await list()).badges.some((b) => b.badgeId === first.badgeId)).toBe(false);
    await ctx.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE badge_holder_stats SET highest_level = highest_level - 7, holders = $2 WHERE badge_id = $1', [
        id(first),
        first.trackedHolders,
      ]);
      await manager.query('UPDATE badges SET name = $2 WHERE id = $1', [id(second), badgeName]);
      await manager.query('UPDATE apps SET name = $2 WHERE app_id = $1', [second.appId, appName]);
      await manager.query('DELETE FROM app_market_prices WHERE app_id = $1', [newApp]);
      await manager.query('DELETE FROM badges WHERE app_id = $1', [newApp]);
      await manager.query('DELETE FROM apps WHERE app_id = $1', [newApp]);
    });
    const after = await list();
    expect(after.badges.map((b) => b.badgeId)).toEqual(before.badges.map((b) => b.badgeId));
    expect(after.badges.find((b) => b.badgeId === first.badgeId)).toMatchObject({ highestLevel: first.highestLevel });
    expect(after.badges.find((b) => b.badgeId === second.badgeId)).toMatchObject({ name: second.name, appName: second.appName });
  });

  it('should find each bucket’s leader among the visible accounts, with its rank', async () => {
    const buckets = async () => {
      const res = await ctx
        .http()
        .post('/v1/leaderboard.getBucketLeaders')
        .set(auth())
        .send({ leaderboard: 'xp', bucketSize: 5 })
        .expect(200);
      return res.body as { from: number; empty: boolean; score?: number; rank?: number; account?: { steamId: string } }[];
    };
    const check = async () => {
      const expected: { bucket: number; account_id: number; score: number }[] = await ctx.dataSource.query(RECOMPUTED_BUCKET_LEADERS, [5]);
      const listed = (await buckets()).filter((bucket) => !bucket.empty);
      expect(listed.map((b) => [b.from / 5, b.account!.steamId, b.score])).toEqual(
        expected.map((e) => [e.bucket, (76561197960265728n + BigInt(e.account_id)).toString(), e.score]),
      );
      for (const bucket of listed) expect(bucket.rank).toBeGreaterThan(0);
      return expected;
    };
    const [top] = (await check()).slice(-1);
    // The top bucket's leader hides: the next best visible account of the bucket leads it.
    await ctx.dataSource.query(
      `INSERT INTO account_settings (account_id, email, hidden) VALUES ($1, 'hidden@users.invalid', true)
       ON CONFLICT (account_id) DO UPDATE SET hidden = true`,
      [top.account_id],
    );
    const after = await check();
    expect(after.map((e) => e.account_id)).not.toContain(top.account_id);
    await ctx.dataSource.query('UPDATE account_settings SET hidden = false WHERE account_id = $1', [top.account_id]);
  });

  it('should rebuild the same state from the base tables', async () => {
    const before = {
      totals: await ctx.dataSource.query('SELECT * FROM platform_totals ORDER BY stripe'),
      holders: await ctx.dataSource.query(MAINTAINED_HOLDERS),
      cards: await ctx.dataSource.query(MAINTAINED_CARDS),
      cardCounts: await ctx.dataSource.query(MAINTAINED_CARD_COUNTS),
      leaders: await ctx.dataSource.query(MAINTAINED_LEADERS),
    };
    await ctx.dataSource.query('DELETE FROM board_value_leaders WHERE value % 2 = 0');
    expect(before.totals.length).toBeGreaterThan(1);
    await ctx.dataSource.query('UPDATE badge_holder_stats SET holders = holders + 5, highest_level = 99');
    await ctx.dataSource.query('UPDATE platform_totals SET xp = 0');
    await ctx.dataSource.query('UPDATE app_card_counts SET classes = classes + 3');
    expect(await rebuildDerivedState(ctx.app, MINE)).toEqual(MINE);
    expect(await ctx.dataSource.query(MAINTAINED_HOLDERS)).toEqual(before.holders);
    expect(await ctx.dataSource.query(MAINTAINED_CARDS)).toEqual(before.cards);
    expect(await ctx.dataSource.query(MAINTAINED_CARD_COUNTS)).toEqual(before.cardCounts);
    expect(await ctx.dataSource.query(MAINTAINED_LEADERS)).toEqual(before.leaders);
    await expectMaintainedEqualsRecomputed();
    // One stripe now holds what the stripes held between them.
    const [sumBefore] = before.totals.reduce(
      (acc: number[], row: Record<string, string>) => [acc[0] + Number(row.xp) + Number(row.total_accounts)],
      [0],
    );
    const [after] = await ctx.dataSource.query('SELECT count(*)::int AS rows, sum(xp + total_accounts)::int AS sum FROM platform_totals');
    expect(after).toEqual({ rows: 1, sum: sumBefore });
  });
});
