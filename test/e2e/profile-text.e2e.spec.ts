import { AccountEntity } from '../../src/account-records/entities/account.entity';
import { AccountRoleEntity } from '../../src/account-records/entities/account-role.entity';
import { toProfile } from '../../src/accounts/mappers/profile.mapper';
import { referenceBadgeCosts } from '../support/badge-costs-reference';
import { RankEngine } from '../../src/ranks/rank-engine.service';
import { AccountRankReader } from '../../src/ranks/account-rank-reader.service';
import { startTestApp, TestContext } from '../support/test-app';
import { CardReplica } from '../../src/account-records/card-replica/card-replica.service';
import { ChangeFeed } from '../../src/change-feed/change-feed';
import { cardTokensVersion } from '../../src/account-records/card-replica/card-tokens';
import * as profileTextModule from '../../src/accounts/mappers/profile-text';
import { PROFILE_BATCH_MAX, ProfileBatches } from '../../src/accounts/profile-batches';

/**
 * The profile's ranks as objects, as account.getInfo built them before they were written as text (profileRanksText):
 * the current ranks on every column board, and the best held merged with them, with their totals. A rank counts as a
 * best only where its scope holds `minAccounts` (a kept best only while its total does); a zero value is rank 0.
 */
function profileRanksOf(
  current: Map<string, { ranks: number[]; totals: number[] }> | null,
  best: { leaderboard: string; ranks: number[]; totals: number[] }[],
  minAccounts: number,
): { currentRanks: unknown[] | null; currentBestRanks: unknown[] | null } {
  if (!current) return { currentRanks: null, currentBestRanks: null };
  const kept = new Map(best.map((entry) => [entry.leaderboard, entry]));
  const currentRanks: unknown[] = [];
  const currentBestRanks: unknown[] = [];
  for (const [leaderboard, r] of current) {
    currentRanks.push({ leaderboard, ranks: r.ranks.join(','), totals: r.totals.join(',') });
    const pairs = r.ranks.map((rank, i) => {
      const keptTotal = kept.get(leaderboard)?.totals[i] ?? 0;
      const keptRank = keptTotal >= minAccounts ? (kept.get(leaderboard)?.ranks[i] ?? 0) : 0;
      const counts = rank > 0 && r.totals[i] >= minAccounts;
      if (counts && (keptRank === 0 || rank < keptRank)) return [rank, r.totals[i]];
      return keptRank ? [keptRank, keptTotal] : [0, 0];
    });
    currentBestRanks.push({ leaderboard, ranks: pairs.map((p) => p[0]).join(','), totals: pairs.map((p) => p[1]).join(',') });
  }
  return { currentRanks, currentBestRanks };
}

const ODD = 'Quote " back\\ slash / tab\t nl\n cr\r ctl\u0001\u001f del\u007f é 😀 \u2028\u2029 <>&';
const COSTLY_APP = 900_001;

/**
 * `account.getInfo` answers with text PostgreSQL wrote (src/accounts/mappers/profile-text.ts); here it is compared
 * with the profile built as objects (toProfile, its ranks and images assigned) and serialized by JSON.stringify: the
 * same bytes, for names needing escapes, every combination of location parts, roles, images, best ranks, badge costs
 * past int32, accounts refreshed or not, and a profile named by vanity; the record's part written by PostgreSQL or,
 * at the row's version, from the process's card replica.
 */
describe('account.getInfo written by PostgreSQL', () => {
  let ctx: TestContext;
  let key: string;
  const ids = [1, 2, 3, 4, 5, 6];

  beforeAll(async () => {
    // Boards of a handful of accounts count as populated here, so that best ranks show.
    ctx = await startTestApp('profiletext', { POPULATED_BOARD_MIN_ACCOUNTS: '2' });
    for (const id of ids) key = await ctx.apiKey(id);
    const update = (id: number, set: string, values: unknown[] = []) =>
      ctx.dataSource.query(`UPDATE accounts SET ${set} WHERE account_id = $1`, [id, ...values]);
    await update(
      1,
      `name = $2, avatar = $2, theme = $3, platform_vanity = $2, site_vanity = 'odd', country_name = $2, country_code = 'SE', region = $2,
       state_name = $2, city_name = $2, platform_created_at = '2011-03-04T05:06:07.891234Z', xp = 2147483647, site_score = 12,
       badges = 40, level = 99, community_ban = true, last_ban_date = '2020-01-02T03:04:05.999999Z', app_privacy = 'private',
       updated_at = '2026-11-20T10:00:00.123456Z', next_allowed_time = '2026-11-20T11:00:00.5Z', last_queue_status = 'completed'`,
      [ODD, `theme ${ODD}`],
    );
    await update(
      2,
      `country_name = 'Sweden', country_code = '', state_name = '', city_name = 'Malmö', economy_ban = 'probation',
      xp = 500, badges = 3, updated_at = now(), friend_privacy = 'friends_only'`,
    );
    await update(3, `country_name = '', state_name = 'Skåne', city_name = NULL, platform_created_at = NULL`);
    await update(4, `country_name = NULL, country_code = 'SE', state_name = NULL, city_name = '', name = ''`);
    await update(
      5,
      `country_name = 'Sweden', country_code = 'SE', state_name = 'Skåne', city_name = 'Lund', privacy = 'private',
      region = 'Europe', xp = 500, updated_at = now()`,
    );
    await ctx.dataSource.query(
      `INSERT INTO account_roles (account_id, role, rating, extras) VALUES
         (1, 'developer', 3, $1), (1, 'donator', 3, NULL), (1, 'moderator', 7, '{}'), (5, 'translator', 0, '{"language":"sv"}')`,
      [JSON.stringify({ note: ODD, nested: { list: [1, 'two', null, true] } })],
    );
    await ctx.dataSource.query(
      `INSERT INTO account_best_ranks (account_id, leaderboard, ranks, totals)
       VALUES (1, 'xp', '{1,0,0,0,0}', '{40,0,0,0,0}'), (2, 'badges', '{7,2,0,0,1}', '{90,1,0,0,30}'), (3, 'apps', '{1,1,0,0,0}', '{}')`,
    );
    await ctx.dataSource.query(
      `INSERT INTO account_images (image_id, account_id, image_type, file_name, format, width, height, frames, byte_size, active, created_at)
       VALUES ('img_a', 1, 'avatar', 'a.png', 'png', 1, 1, 1, 10, true, now()), ('img_b', 1, 'avatar', 'b.png', 'png', 1, 1, 1, 10, false, now())`,
    );
    // Badge costs: account 1's normal badges are worth more than int32 cents (clamped), its foil ones little.
    await ctx.dataSource.query(`INSERT INTO apps (app_id, name, icon) VALUES ($1, 'Costly', '')`, [COSTLY_APP]);
    const badges: { id: number }[] = await ctx.dataSource.query(
      `INSERT INTO badges (badge_key, app_id, platform_badge_id, is_foil, scarcity)
       VALUES ('app:${COSTLY_APP}:normal', $1, 1, false, 5), ('app:${COSTLY_APP}:foil', $1, 1, true, 5) RETURNING id`,
      [COSTLY_APP],
    );
    for (const [type, price] of [
      ['normal', 300_000],
      ['foil', 500],
    ] as const)
      await ctx.dataSource.query(
        `INSERT INTO app_market_prices (app_id, badge_type, cards, unlisted_cards, unmarketable_cards, average_volume,
           card_average_price, set_price, buy_order_average_price, set_buy_order_price, updated_at)
         VALUES ($1, $2, 6, 0, 0, 40, 12, $3, 9, 54, now())`,
        [COSTLY_APP, type, price],
      );
    await ctx.dataSource.query(
      `INSERT INTO account_badges (account_id, badge_id, level, xp, completion_time)
       VALUES (1, $1, 10000, 100, now()), (1, $2, 3, 100, now()), (2, $1, 2, 100, now())`,
      [badges[0].id, badges[1].id],
    );
    await ctx.app.get(RankEngine).rebuild();
  });
  afterAll(() => ctx.close());

  /** The profile as objects, as account.getInfo built it before it was written as text. */
  async function objectProfile(accountId: number): Promise<string> {
    const account = (await ctx.dataSource.getRepository(AccountEntity).findOneBy({ accountId }))!;
    const roles = await ctx.dataSource
      .getRepository(AccountRoleEntity)
      .find({ where: { accountId }, order: { rating: 'DESC', role: 'ASC' } });
    const costs = await referenceBadgeCosts(ctx.dataSource, accountId);
    const best: { leaderboard: string; ranks: number[]; totals: number[] }[] = await ctx.dataSource.query(
      'SELECT leaderboard, ranks, totals FROM account_best_ranks WHERE account_id = $1',
      [accountId],
    );
    const images: unknown[] = await ctx.dataSource.query(
      `SELECT active, file_name AS "fileName", image_id AS "imageId", image_type AS "imageType" FROM account_images
        WHERE account_id = $1 ORDER BY image_type, active DESC, created_at DESC, image_id`,
      [accountId],
    );
    const current = account.updatedAt ? await ctx.app.get(AccountRankReader).accountRanks(accountId) : null;
    const profile = Object.assign(toProfile(account, roles, costs), profileRanksOf(current, best, ctx.config.populatedBoardMinAccounts), {
      images,
    });
    return JSON.stringify({ $schema: 'http://api.test/schemas/V1AccountGetInfoResponseBody.json', ...profile });
  }

  const getInfo = (body: object) => ctx.http().post('/v1/account.getInfo').set('Authorization', `Bearer ${key}`).send(body).expect(200);

  it('should answer each profile as JSON.stringify writes the object profile, byte for byte', async () => {
    for (const accountId of ids) {
      const res = await getInfo({ id: { accountId } });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect({ accountId, text: res.text }).toEqual({ accountId, text: await objectProfile(accountId) });
    }
    // The odd values, costs, images and ranks did reach the profiles compared.
    const odd = (await getInfo({ id: { accountId: 1 } })).body;
    expect(odd.name).toBe(ODD);
    expect(odd.lastBanDate).toBe('2020-01-02T03:04:05.999Z');
    expect([odd.appCost, odd.normalBadgeCost, odd.foilBadgeCost]).toEqual([2_147_483_647, 2_147_483_647, 1500]);
    expect(odd.images.map((image: { imageId: string }) => image.imageId)).toEqual(['img_a', 'img_b']);
    expect(odd.roles.length).toBe(3);
    expect(odd.currentRanks.find((r: { leaderboard: string }) => r.leaderboard === 'xp').ranks).toBe('1,1,1,1,1');
    expect((await getInfo({ id: { accountId: 3 } })).body.currentRanks).toBeNull();
  });

  it('should answer a profile named by vanity or steamId64 as the one named by id', async () => {
    const byId = (await getInfo({ id: { accountId: 1 } })).text;
    expect((await getInfo({ vanity: { type: 'internal', value: 'odd' } })).text).toBe(byId);
    expect((await getInfo({ id: { steamId64: String(76561197960265728n + 1n) } })).text).toBe(byId);
  });

  it('should read the profiles asked in one turn with one statement, each answer its own account’s', async () => {
    const statements = jest.spyOn(ctx.dataSource, 'query');
    try {
      const unknown = 7_000_000;
      const asked = [3, 1, unknown, 2, 1, 6];
      const rows = await Promise.all(asked.map((accountId) => ctx.app.get(ProfileBatches).read(accountId, '')));
      expect(statements.mock.calls.filter(([text]) => text === profileTextModule.PROFILE_TEXT_SQL)).toHaveLength(1);
      expect(rows.map((row) => row && JSON.parse(`{${row.own.slice(1)}}`).accountId)).toEqual([3, 1, null, 2, 1, 6]);
      // More than a batch holds in one turn: several statements, sent together, each answer still its own account's.
      statements.mockClear();
      const many = Array.from({ length: 2 * PROFILE_BATCH_MAX + 1 }, (_, i) => asked[i % asked.length]);
      const manyRows = await Promise.all(many.map((accountId) => ctx.app.get(ProfileBatches).read(accountId, '')));
      expect(statements.mock.calls.filter(([text]) => text === profileTextModule.PROFILE_TEXT_SQL)).toHaveLength(3);
      expect(manyRows.map((row) => row && JSON.parse(`{${row.own.slice(1)}}`).accountId)).toEqual(
        many.map((accountId) => (accountId === unknown ? null : accountId)),
      );
    } finally {
      statements.mockRestore();
    }
    // Through HTTP, at once: every answer is its account's profile, the unknown account's a 404.
    const answers = await Promise.all(
      [...ids, 7_000_000].map((accountId) =>
        ctx.http().post('/v1/account.getInfo').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([...ids.map(() => 200), 404]);
    for (const [i, accountId] of ids.entries())
      expect({ accountId, text: answers[i].text }).toEqual({ accountId, text: await objectProfile(accountId) });
  });

  /** Waits (up to 10 s) until `check` holds. */
  const eventually = async (what: string, check: () => Promise<boolean> | boolean) => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it("should write the record's part from the card replica at the row's version, and by PostgreSQL once the row moved on", async () => {
    const replica = ctx.app.get(CardReplica);
    await eventually('the replica serves', () => replica.serving);
    // The rows were written by hand after the replica loaded: told to it through the change feed.
    await ctx.app.get(ChangeFeed).record(ctx.dataSource.manager, { kind: 'rows-changed', accountIds: ids });
    await ctx.app.get(ChangeFeed).nudge(ids);
    const rowVersions = async () =>
      new Map(
        (
          (await ctx.dataSource.query('SELECT account_id, xmin::text AS version FROM accounts WHERE account_id = ANY($1)', [ids])) as {
            account_id: number;
            version: string;
          }[]
        ).map((row) => [row.account_id, row.version]),
      );
    await eventually('the replica holds each row at its version', async () => {
      const versions = await rowVersions();
      return ids.every((id) => {
        const tokens = replica.heldTokens(id);
        return tokens !== null && cardTokensVersion(tokens) === versions.get(id);
      });
    });
    const fromReplica = jest.spyOn(profileTextModule, 'recordTextOfTokens');
    try {
      for (const accountId of ids) {
        const res = await getInfo({ id: { accountId } });
        expect({ accountId, text: res.text }).toEqual({ accountId, text: await objectProfile(accountId) });
      }
      expect(fromReplica).toHaveBeenCalledTimes(ids.length);
      // Changed behind the replica's back (nobody announces it): its texts are a version behind, PostgreSQL writes.
      fromReplica.mockClear();
      await ctx.dataSource.query(`UPDATE accounts SET name = 'Moved on', city_name = 'Ystad', xp = 7 WHERE account_id = 2`);
      const moved = await getInfo({ id: { accountId: 2 } });
      expect([moved.body.name, moved.body.city?.name, moved.body.xp]).toEqual(['Moved on', 'Ystad', 7]);
      expect(moved.text).toBe(await objectProfile(2));
      expect(fromReplica).not.toHaveBeenCalled();
    } finally {
      fromReplica.mockRestore();
    }
  });
});
