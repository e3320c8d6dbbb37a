import { startPipeline, PipelineContext } from '../support/pipeline';
import Redis from 'ioredis';
import { createHttpApp } from '../../src/http-app';
import { FillAccountRegions1796541227530 } from '../../src/database/migrations/1796541227530-FillAccountRegions';
import { regionOfCountry } from '../../src/platform/country-regions';
import { RANK_BUILD_FORMAT, RankEngine } from '../../src/ranks/rank-engine.service';
import { REDIS_URL } from '../support/test-app';

/** account.updateSettings, account.updateVanity, hidden accounts, country overrides and the region scope, through HTTP. */
describe('account settings', () => {
  let ctx: PipelineContext;
  let key: string;
  const FIRST = 2;
  const LAST = 25;
  const idOf = (steamId: string) => Number(BigInt(steamId) - 76561197960265728n);
  const as = (token: string, op: string, body: object = {}) =>
    ctx.http().post(`/v1/${op}`).set('Authorization', `Bearer ${token}`).send(body);
  const board = (body: Record<string, unknown>) => as(key, 'leaderboard.getAccountLeaderboard', body);
  const settingsOf = async (token: string) => (await as(token, 'account.getSettings').expect(200)).body;
  const refresh = async (accountId: number) => {
    await ctx.dataSource.query('UPDATE accounts SET next_allowed_time = now() WHERE account_id = $1', [accountId]);
    await as(key, 'account.queueUpdate', { id: { accountId } }).expect(204);
    await ctx.waitForCompletion(accountId, key, 20_000);
  };
  /** The account ids a whole board lists (hidden rows are null), in rank order. */
  const listed = async (body: Record<string, unknown>) => {
    const res = await board({ ...body, start: 1, end: 100 }).expect(200);
    return { ids: res.body.accounts.map((a: { steamId: string } | null) => (a ? idOf(a.steamId) : null)), body: res.body };
  };

  beforeAll(async () => {
    ctx = await startPipeline('settings', { env: { SETTINGS_CHANGES_PER_HOUR: '40' } });
    key = await ctx.apiKey(LAST);
    await ctx.startWorker();
    for (let accountId = FIRST; accountId <= LAST; accountId++) {
      await as(key, 'account.queueUpdate', { id: { accountId } }).expect(204);
    }
    for (let accountId = FIRST; accountId <= LAST; accountId++) await ctx.waitForCompletion(accountId, key, 20_000);
  }, 90_000);
  afterAll(() => ctx.close());

  describe('the region scope', () => {
    it('should give every refreshed account with a country the region of its country', async () => {
      const rows: { country_code: string; region: string | null }[] = await ctx.dataSource.query(
        'SELECT country_code, region FROM accounts WHERE updated_at IS NOT NULL AND country_code IS NOT NULL',
      );
      expect(rows.length).toBeGreaterThan(3);
      for (const row of rows) expect(row.region).toBe(regionOfCountry(row.country_code));
      expect(rows.some((row) => row.region === 'Europe' || row.region === 'North America')).toBe(true);
    });

    it('should list a region’s accounts on its boards and give the profile its own region rank and total', async () => {
      const [{ region }]: { region: string }[] = await ctx.dataSource.query(
        `SELECT region FROM accounts WHERE updated_at IS NOT NULL AND region IS NOT NULL GROUP BY region ORDER BY count(*) DESC, region LIMIT 1`,
      );
      const members: { account_id: number; xp: number }[] = await ctx.dataSource.query(
        'SELECT account_id, xp FROM accounts WHERE updated_at IS NOT NULL AND region = $1 ORDER BY xp DESC, account_id',
        [region],
      );
      const { ids, body } = await listed({ leaderboard: 'xp', location: [{ region }] });
      expect(body.rankedOutOf).toBe(members.length);
      const scoring = members.filter((m) => m.xp > 0).map((m) => m.account_id);
      expect(ids.slice(0, scoring.length)).toEqual(scoring);

      const member = members.find((m) => m.xp > 0)!;
      const profile = (await as(key, 'account.getInfo', { id: { accountId: member.account_id } }).expect(200)).body;
      expect(profile.region).toEqual({ name: region });
      const xp = profile.currentRanks.find((r: { leaderboard: string }) => r.leaderboard === 'xp');
      const [, regionRank] = xp.ranks.split(',').map(Number);
      const [, regionTotal] = xp.totals.split(',').map(Number);
      // A recomputation: higher xp first, then the lower account id.
      expect(regionRank).toBe(scoring.indexOf(member.account_id) + 1);
      expect(regionTotal).toBe(members.length);
      // Cards carry the region too.
      const card = body.accounts.find((a: { steamId: string } | null) => a && idOf(a.steamId) === member.account_id);
      expect(card.region).toEqual({ name: region });
    });
  });

  describe('account.updateSettings', () => {
    const valid = { hidden: false, language: 'en', vanity: null };

    it('should save every field, as account.getSettings then shows', async () => {
      const { sessionToken } = await ctx.session(5);
      await ctx.dataSource.query('UPDATE account_settings SET email_verified_at = now() WHERE account_id = 5');
      await as(sessionToken, 'account.updateSettings', {
        hidden: false,
        language: 'pt-BR',
        vanity: 'SetBySettings',
        email: 'Me@Example.com',
      }).expect(204);
      const settings = await settingsOf(sessionToken);
      expect(settings).toMatchObject({
        hidden: false,
        language: 'pt-BR',
        vanity: 'setbysettings',
        email: 'Me@Example.com',
        emailVerifiedAt: null,
      });
      // The same address (in any case) keeps its verification; `email` left out keeps the address.
      await ctx.dataSource.query('UPDATE account_settings SET email_verified_at = now() WHERE account_id = 5');
      await as(sessionToken, 'account.updateSettings', { ...valid, vanity: 'setbysettings', email: 'me@example.com' }).expect(204);
      expect((await settingsOf(sessionToken)).emailVerifiedAt).not.toBeNull();
      await as(sessionToken, 'account.updateSettings', { ...valid, vanity: '' }).expect(204);
      const after = await settingsOf(sessionToken);
      expect(after).toMatchObject({ email: 'me@example.com', vanity: '', language: 'en' });
      expect(after.emailVerifiedAt).not.toBeNull();
      // A settings object sent back as getSettings gave it is accepted.
      await as(sessionToken, 'account.updateSettings', {
        hidden: after.hidden,
        language: after.language,
        vanity: after.vanity,
        email: after.email,
      }).expect(204);
    });

    it('should refuse each invalid field with a 422 naming it, and write nothing', async () => {
      const { sessionToken } = await ctx.session(6);
      await as(sessionToken, 'account.updateSettings', {
        hidden: false,
        language: 'de',
        vanity: 'sixsix',
        email: 'six@example.com',
      }).expect(204);
      const before = await settingsOf(sessionToken);
      const rowBefore = await ctx.dataSource.query('SELECT * FROM account_settings WHERE account_id = 6');
      const cases: [Record<string, unknown>, string][] = [
        [{ ...valid, hidden: 'yes' }, 'body.hidden'],
        [{ language: 'en', vanity: null }, 'body.hidden'],
        [{ ...valid, language: 'english' }, 'body.language'],
        [{ ...valid, language: 'xq' }, 'body.language'],
        [{ ...valid, language: 'en-XQ' }, 'body.language'],
        [{ ...valid, vanity: 'a' }, 'body.vanity'],
        [{ ...valid, vanity: 'with space' }, 'body.vanity'],
        [{ ...valid, vanity: 'x'.repeat(33) }, 'body.vanity'],
        [{ ...valid, email: 'not-an-address' }, 'body.email'],
        [{ ...valid, email: `${'a'.repeat(250)}@example.com` }, 'body.email'],
        [{ ...valid, countryOverride: 'Atlantis' }, 'body.countryOverride'],
        [{ ...valid, countryOverride: 'QQ' }, 'body.countryOverride'],
      ];
      for (const [body, location] of cases) {
        const res = await as(sessionToken, 'account.updateSettings', body);
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
      }
      expect(await settingsOf(sessionToken)).toEqual(before);
      expect(await ctx.dataSource.query('SELECT * FROM account_settings WHERE account_id = 6')).toEqual(rowBefore);
    });

    it('should refuse API keys, and answer 429 with Retry-After past the per-account limit', async () => {
      await as(key, 'account.updateSettings', valid).expect(401);
      await as(key, 'account.updateVanity', { vanity: 'keyholder' }).expect(401);
      const { sessionToken } = await ctx.session(7);
      for (let i = 0; i < 40; i++) {
        if (i % 2) await as(sessionToken, 'account.updateVanity', { vanity: null }).expect(204);
        else await as(sessionToken, 'account.updateSettings', valid).expect(204);
      }
      const refused = await as(sessionToken, 'account.updateSettings', { ...valid, language: 'fr' }).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await settingsOf(sessionToken)).language).toBe('en');
      // Another account has its own allowance.
      const other = await ctx.session(8);
      await as(other.sessionToken, 'account.updateSettings', valid).expect(204);
    });
  });

  describe('account.updateVanity', () => {
    const byVanity = (value: string) => as(key, 'account.getInfo', { vanity: { value, type: 'internal' } });

    it('should set, find, refuse another account’s in any case, replace and remove a vanity', async () => {
      const a = await ctx.session(9);
      const b = await ctx.session(10);
      await byVanity('Flo42').expect(404);
      await as(a.sessionToken, 'account.updateVanity', { vanity: 'Flo42' }).expect(204);
      expect((await byVanity('flo42').expect(200)).body.accountId).toBe(9);
      expect((await byVanity('FLO42').expect(200)).body.accountId).toBe(9);
      expect((await settingsOf(a.sessionToken)).vanity).toBe('flo42');

      const taken = await as(b.sessionToken, 'account.updateVanity', { vanity: 'fLo42' }).expect(409);
      expect(taken.headers['content-type']).toMatch(/application\/problem\+json/);
      await as(b.sessionToken, 'account.updateSettings', { hidden: false, language: 'en', vanity: 'FLO42' }).expect(409);
      expect((await settingsOf(b.sessionToken)).vanity).toBe('');

      // Setting its own vanity again (any case) is no conflict.
      await as(a.sessionToken, 'account.updateVanity', { vanity: 'FLO42' }).expect(204);
      await as(a.sessionToken, 'account.updateVanity', { vanity: 'NewName' }).expect(204);
      await byVanity('flo42').expect(404);
      expect((await byVanity('newname').expect(200)).body.steamSetsVanity).toBe('newname');
      // The old one is free again.
      await as(b.sessionToken, 'account.updateVanity', { vanity: 'flo42' }).expect(204);
      expect((await byVanity('Flo42').expect(200)).body.accountId).toBe(10);

      // Cards show it: account 9 is refreshed, so it is on the xp board.
      const { body } = await listed({ leaderboard: 'xp' });
      const card = body.accounts.find((c: { steamId: string } | null) => c && idOf(c.steamId) === 9);
      if (card) expect(card.steamSetsVanity).toBe('newname');

      await as(a.sessionToken, 'account.updateVanity', { vanity: null }).expect(204);
      await byVanity('newname').expect(404);
      await as(b.sessionToken, 'account.updateVanity', {}).expect(204);
      await byVanity('flo42').expect(404);
      await as(a.sessionToken, 'account.updateVanity', { vanity: 'no' + '!' }).expect(422);
    });
  });

  describe('a country override', () => {
    it('should move the account between country and region boards and its profile, through a refresh, and back', async () => {
      const [own]: { account_id: number; country_code: string; country_name: string; region: string; state_name: string | null }[] =
        await ctx.dataSource.query(
          `SELECT account_id, country_code, country_name, region, state_name FROM accounts
            WHERE updated_at IS NOT NULL AND country_code IS NOT NULL AND xp > 0 AND account_id BETWEEN 11 AND 24 ORDER BY account_id LIMIT 1`,
        );
      expect(own).toBeDefined();
      const id = own.account_id;
      const target =
        own.region === 'South America'
          ? { name: 'Germany', code: 'DE', region: 'Europe' }
          : { name: 'Brazil', code: 'BR', region: 'South America' };
      const { sessionToken } = await ctx.session(id);
      const onBoard = async (location: Record<string, string>) =>
        (await listed({ leaderboard: 'xp', location: [location] })).ids.includes(id);
      expect(await onBoard({ country: own.country_name })).toBe(true);
      expect(await onBoard({ region: own.region })).toBe(true);
      expect(await onBoard({ country: target.name })).toBe(false);

      await as(sessionToken, 'account.updateSettings', {
        hidden: false,
        language: 'en',
        vanity: null,
        countryOverride: target.code.toLowerCase(),
      }).expect(204);
      const overridden = async () => {
        expect(await onBoard({ country: target.name })).toBe(true);
        expect(await onBoard({ region: target.region })).toBe(true);
        expect(await onBoard({ country: own.country_name })).toBe(false);
        expect(await onBoard({ region: own.region })).toBe(false);
        const profile = (await as(key, 'account.getInfo', { id: { accountId: id } }).expect(200)).body;
        expect(profile.country).toEqual({ name: target.name, code: target.code });
        expect(profile.region).toEqual({ name: target.region });
        expect(profile.state).toBeUndefined();
        expect(profile.city).toBeUndefined();
        const xp = profile.currentRanks.find((r: { leaderboard: string }) => r.leaderboard === 'xp');
        const [, regionRank, countryRank, stateRank] = xp.ranks.split(',').map(Number);
        expect(regionRank).toBeGreaterThan(0);
        expect(countryRank).toBeGreaterThan(0);
        expect(stateRank).toBe(0);
        const settings = await settingsOf(sessionToken);
        expect(settings).toMatchObject({ countryOverrideCode: target.code, countryOverrideName: target.name });
      };
      await overridden();

      // The worker's next refresh reads the platform's country again, and applies the override over it.
      await refresh(id);
      await overridden();

      await as(sessionToken, 'account.updateSettings', { hidden: false, language: 'en', vanity: null, countryOverride: null }).expect(204);
      expect(await onBoard({ country: own.country_name })).toBe(true);
      expect(await onBoard({ region: own.region })).toBe(true);
      expect(await onBoard({ country: target.name })).toBe(false);
      const profile = (await as(key, 'account.getInfo', { id: { accountId: id } }).expect(200)).body;
      expect(profile.country).toEqual({ name: own.country_name, code: own.country_code });
      expect(profile.region).toEqual({ name: own.region });
      if (own.state_name) expect(profile.state).toEqual({ name: own.state_name });
      expect(await settingsOf(sessionToken)).toMatchObject({ countryOverrideCode: null, countryOverrideName: null });
    });
  });

  describe('hidden', () => {
    it('should take the account off the boards and listings that show accounts, and bring it back when unhidden', async () => {
      const [{ account_id: id }]: { account_id: number }[] = await ctx.dataSource.query(
        'SELECT account_id FROM accounts WHERE updated_at IS NOT NULL AND xp > 0 AND account_id BETWEEN 11 AND 24 ORDER BY xp DESC LIMIT 1',
      );
      const [{ badge_id: badgeId }]: { badge_id: number }[] = await ctx.dataSource.query(
        'SELECT badge_id FROM account_badges WHERE account_id = $1 ORDER BY badge_id LIMIT 1',
        [id],
      );
      const [{ app_id: appId }]: { app_id: number }[] = await ctx.dataSource.query(
        'SELECT app_id FROM account_apps WHERE account_id = $1 ORDER BY playtime DESC LIMIT 1',
        [id],
      );
      const { sessionToken } = await ctx.session(id);
      const viewer = await ctx.session(LAST);
      const crafters = async () => {
        const res = await as(viewer.sessionToken, 'badge.listCrafters', { badgeId: `bdg_${badgeId}`, limit: 100 }).expect(200);
        return res.body.crafters as ({ steamId: string } | null)[];
      };
      const owners = async () => {
        const res = await as(viewer.sessionToken, 'app.listOwners', { appId, limit: 100 }).expect(200);
        return res.body.owners as ({ steamId: string } | null)[];
      };
      const shown = (list: ({ steamId: string } | null)[]) => list.some((c) => c && idOf(c.steamId) === id);
      const before = await listed({ leaderboard: 'xp' });
      const rank = before.ids.indexOf(id) + 1;
      expect(rank).toBeGreaterThan(0);
      expect(shown(await crafters())).toBe(true);
      expect(shown(await owners())).toBe(true);
      const craftersBefore = (await crafters()).length;

      await as(sessionToken, 'account.updateSettings', { hidden: true, language: 'en', vanity: null }).expect(204);
      expect((await settingsOf(sessionToken)).hidden).toBe(true);
      const hidden = await listed({ leaderboard: 'xp' });
      expect(hidden.body.rankedOutOf).toBe(before.body.rankedOutOf);
      expect(hidden.ids[rank - 1]).toBeNull();
      expect(hidden.body.hiddenRanks).toContain(rank);
      expect(hidden.ids).not.toContain(id);
      const hiddenCrafters = await crafters();
      expect(shown(hiddenCrafters)).toBe(false);
      expect(hiddenCrafters).toHaveLength(craftersBefore);
      expect(shown(await owners())).toBe(false);
      // The account still sees itself.
      const self = await as(sessionToken, 'badge.listCrafters', { badgeId: `bdg_${badgeId}`, limit: 100 }).expect(200);
      expect(shown(self.body.crafters)).toBe(true);

      await as(sessionToken, 'account.updateSettings', { hidden: false, language: 'en', vanity: null }).expect(204);
      expect((await listed({ leaderboard: 'xp' })).ids[rank - 1]).toBe(id);
      expect(shown(await crafters())).toBe(true);
      expect(shown(await owners())).toBe(true);
    });
  });

  describe('a deployment from before the regions', () => {
    it('should fill the regions by the migration and rebuild the boards when the next release boots, without a command', async () => {
      const engine = ctx.app.get(RankEngine);
      const redis = new Redis(REDIS_URL);
      try {
        // The state of a deployment before this release: no region stored, boards built without them, no format noted.
        await ctx.dataSource.query('UPDATE accounts SET region = NULL');
        await engine.rebuild();
        await redis.del(engine.keys.format);
        const [{ region }]: { region: string }[] = await ctx.dataSource.query(`SELECT $1::text AS region`, [
          regionOfCountry(
            (
              await ctx.dataSource.query(
                'SELECT country_code FROM accounts WHERE updated_at IS NOT NULL AND country_code IS NOT NULL LIMIT 1',
              )
            )[0].country_code,
          ),
        ]);
        expect((await board({ leaderboard: 'xp', location: [{ region }] }).expect(200)).body.rankedOutOf).toBe(0);

        // The release: its migration fills the regions, and the first process to boot rebuilds the boards in place.
        const runner = ctx.dataSource.createQueryRunner();
        try {
          await new FillAccountRegions1796541227530().up(runner);
        } finally {
          await runner.release();
        }
        const members: { n: number }[] = await ctx.dataSource.query(
          'SELECT count(*)::int AS n FROM accounts WHERE updated_at IS NOT NULL AND region = $1',
          [region],
        );
        expect(members[0].n).toBeGreaterThan(0);
        const next = await createHttpApp(ctx.config);
        await next.init();
        try {
          await next.get(RankEngine).upgrading;
          expect(await redis.get(engine.keys.format)).toBe(String(RANK_BUILD_FORMAT));
          // This process's rank replica follows the rebuild through the change feed: within seconds, not at once.
          let rankedOutOf = -1;
          for (const deadline = Date.now() + 30_000; rankedOutOf !== members[0].n && Date.now() < deadline;) {
            rankedOutOf = (await board({ leaderboard: 'xp', location: [{ region }] }).expect(200)).body.rankedOutOf;
            if (rankedOutOf !== members[0].n) await new Promise((resolve) => setTimeout(resolve, 100));
          }
          expect(rankedOutOf).toBe(members[0].n);
        } finally {
          await next.close();
        }
      } finally {
        await redis.quit();
      }
    }, 60_000);
  });
});
