import { startTestApp, TestContext } from '../support/test-app';
import { matchesDocument } from '../support/wire-answers';

const KIB = 1024;

describe('preferences: kv entries and badge bookmarks', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('prefs');
  });
  afterAll(() => ctx.close());

  const as = (token: string, op: string, body?: object) => {
    const req = ctx.http().post(`/v1/${op}`).set('Authorization', `Bearer ${token}`).expect(matchesDocument(op));
    return body === undefined ? req : req.send(body);
  };
  const entries = async (token: string, namespace?: string | null) => {
    const res = await as(token, 'kv.list', namespace === undefined ? {} : { namespace });
    expect(res.status).toBe(200);
    return res.body.entries as { namespace: string; key: string; value: string; updatedAt: string }[];
  };
  /** Entries written straight to the table, to bring an account near a bound without hundreds of requests. */
  const seedEntries = (accountId: number, count: number, namespace = 'seed', valueBytes = 1) =>
    ctx.dataSource.query(
      `INSERT INTO account_kv_entries (account_id, namespace, key, value)
       SELECT $1, $2, 'k' || n, repeat('v', $4) FROM generate_series(1, $3) n`,
      [accountId, namespace, count, valueBytes],
    );

  describe('kv', () => {
    it('should set, list (all or one namespace), replace and delete entries, idempotently', async () => {
      const { sessionToken } = await ctx.session(401);
      expect(await entries(sessionToken)).toEqual([]);
      const started = Date.now();
      expect((await as(sessionToken, 'kv.set', { namespace: 'ui', key: 'theme', value: '{"mode":"dark"}' })).status).toBe(204);
      expect((await as(sessionToken, 'kv.set', { namespace: 'wishlist', key: 'bdg_12', value: '' })).status).toBe(204);
      expect((await as(sessionToken, 'kv.set', { namespace: 'ui', key: 'a/b:c@d+e-f_g.h', value: 'ünï€ode ✓' })).status).toBe(204);
      const listed = await as(sessionToken, 'kv.list', {});
      expect(listed.body.$schema).toBe('http://api.test/schemas/KvListResponseBody.json');
      expect(listed.body.entries).toEqual([
        { namespace: 'ui', key: 'a/b:c@d+e-f_g.h', value: 'ünï€ode ✓', updatedAt: expect.any(String) },
        { namespace: 'ui', key: 'theme', value: '{"mode":"dark"}', updatedAt: expect.any(String) },
        { namespace: 'wishlist', key: 'bdg_12', value: '', updatedAt: expect.any(String) },
      ]);
      const first = Date.parse(listed.body.entries[1].updatedAt);
      expect(first).toBeGreaterThanOrEqual(started - 5_000);
      expect((await entries(sessionToken, 'wishlist')).map((e) => e.key)).toEqual(['bdg_12']);
      expect((await entries(sessionToken, null)).length).toBe(3);
      expect(await entries(sessionToken, 'nothing-here')).toEqual([]);

      await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await as(sessionToken, 'kv.set', { namespace: 'ui', key: 'theme', value: '{"mode":"light"}' })).status).toBe(204);
      const replaced = (await entries(sessionToken, 'ui')).find((e) => e.key === 'theme')!;
      expect(replaced.value).toBe('{"mode":"light"}');
      expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(first);

      expect((await as(sessionToken, 'kv.delete', { namespace: 'ui', key: 'theme' })).status).toBe(204);
      expect((await as(sessionToken, 'kv.delete', { namespace: 'ui', key: 'theme' })).status).toBe(204);
      expect((await as(sessionToken, 'kv.delete', { namespace: 'never', key: 'was' })).status).toBe(204);
      expect((await entries(sessionToken)).map((e) => `${e.namespace}/${e.key}`)).toEqual(['ui/a/b:c@d+e-f_g.h', 'wishlist/bdg_12']);
    });

    it('should keep each account’s entries its own', async () => {
      const owner = await ctx.session(402);
      const other = await ctx.session(403);
      await as(owner.sessionToken, 'kv.set', { namespace: 'ui', key: 'theme', value: 'mine' }).expect(204);
      expect(await entries(other.sessionToken)).toEqual([]);
      await as(other.sessionToken, 'kv.delete', { namespace: 'ui', key: 'theme' }).expect(204);
      await as(other.sessionToken, 'kv.set', { namespace: 'ui', key: 'theme', value: 'theirs' }).expect(204);
      expect((await entries(owner.sessionToken)).map((e) => e.value)).toEqual(['mine']);
      expect((await entries(other.sessionToken)).map((e) => e.value)).toEqual(['theirs']);
    });

    it('should bound a value to 16 KiB of UTF-8, counted in bytes', async () => {
      const { sessionToken } = await ctx.session(404);
      await as(sessionToken, 'kv.set', { namespace: 'ui', key: 'full', value: 'x'.repeat(16 * KIB) }).expect(204);
      // 8,193 characters, 16,386 bytes: within the schema's character count, past the byte bound.
      const multibyte = await as(sessionToken, 'kv.set', { namespace: 'ui', key: 'wide', value: 'é'.repeat(8 * KIB + 1) });
      expect(multibyte.status).toBe(422);
      expect(multibyte.body.errors).toEqual([
        expect.objectContaining({ location: 'body.value', message: expect.stringMatching(/16386 bytes/) }),
      ]);
      const long = await as(sessionToken, 'kv.set', { namespace: 'ui', key: 'long', value: 'x'.repeat(16 * KIB + 1) });
      expect(long.status).toBe(422);
      expect((await entries(sessionToken)).map((e) => e.key)).toEqual(['full']);
    });

    it('should bound a namespace to 64 KiB and an account to 256 KiB of values, a replaced value counted once', async () => {
      const { sessionToken } = await ctx.session(405);
      const big = 'x'.repeat(16 * KIB);
      for (let i = 0; i < 4; i++) await as(sessionToken, 'kv.set', { namespace: 'one', key: `k${i}`, value: big }).expect(204);
      const full = await as(sessionToken, 'kv.set', { namespace: 'one', key: 'k4', value: 'x' });
      expect(full.status).toBe(422);
      expect(full.body.errors[0].message).toMatch(/namespace one to 65537 bytes/);
      await as(sessionToken, 'kv.set', { namespace: 'one', key: 'k0', value: 'y'.repeat(16 * KIB) }).expect(204);
      for (const namespace of ['two', 'three', 'four'])
        for (let i = 0; i < 4; i++) await as(sessionToken, 'kv.set', { namespace, key: `k${i}`, value: big }).expect(204);
      const account = await as(sessionToken, 'kv.set', { namespace: 'five', key: 'k0', value: 'x' });
      expect(account.status).toBe(422);
      expect(account.body.errors[0].message).toMatch(/account's values to 262145 bytes/);
      const listed = await entries(sessionToken);
      expect(listed).toHaveLength(16);
      expect(listed.find((e) => e.namespace === 'one' && e.key === 'k0')!.value[0]).toBe('y');
      // Smaller values make room again.
      await as(sessionToken, 'kv.set', { namespace: 'four', key: 'k3', value: 'small' }).expect(204);
      await as(sessionToken, 'kv.set', { namespace: 'five', key: 'k0', value: 'x' }).expect(204);
    });

    it('should bound an account to 200 entries, also when sets race, and still replace at the bound', async () => {
      const { sessionToken } = await ctx.session(406);
      await seedEntries(406, 195);
      const raced = await Promise.all(
        Array.from({ length: 10 }, (_, i) => as(sessionToken, 'kv.set', { namespace: 'race', key: `r${i}`, value: 'v' })),
      );
      expect(raced.map((res) => res.status).sort()).toEqual([204, 204, 204, 204, 204, 422, 422, 422, 422, 422]);
      expect(raced.find((res) => res.status === 422)!.body.errors[0]).toMatchObject({
        location: 'body.key',
        message: expect.stringMatching(/at most 200/),
      });
      expect(await entries(sessionToken)).toHaveLength(200);
      await as(sessionToken, 'kv.set', { namespace: 'seed', key: 'k1', value: 'replaced' }).expect(204);
      await as(sessionToken, 'kv.delete', { namespace: 'seed', key: 'k2' }).expect(204);
      await as(sessionToken, 'kv.set', { namespace: 'race', key: 'room', value: 'v' }).expect(204);
      expect(await entries(sessionToken)).toHaveLength(200);
    });

    it('should refuse invalid names and values with a 422 naming the field, and store nothing', async () => {
      const { sessionToken } = await ctx.session(407);
      const cases: [object, string][] = [
        [{ namespace: 'a b', key: 'k', value: 'v' }, 'body.namespace'],
        [{ namespace: '', key: 'k', value: 'v' }, 'body.namespace'],
        [{ namespace: 'n'.repeat(65), key: 'k', value: 'v' }, 'body.namespace'],
        [{ namespace: 'ui', key: '', value: 'v' }, 'body.key'],
        [{ namespace: 'ui', key: '..', value: 'v' }, 'body.key'],
        [{ namespace: '-', key: 'k', value: 'v' }, 'body.namespace'],
        [{ namespace: 'ui', key: 'k'.repeat(129), value: 'v' }, 'body.key'],
        [{ namespace: 'ui', key: 'ключ', value: 'v' }, 'body.key'],
        [{ namespace: 'ui', key: 'k', value: 'line\nbreak' }, 'body.value'],
        [{ namespace: 'ui', key: 'k', value: 'nul\u0000' }, 'body.value'],
        [{ namespace: 'ui', key: 'k', value: 42 }, 'body.value'],
        [{ namespace: 'ui', key: 'k' }, 'body.value'],
        [{ namespace: 'ui', key: 'k', value: 'v', extra: 1 }, 'body.extra'],
      ];
      for (const [body, location] of cases) {
        const res = await as(sessionToken, 'kv.set', body);
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
        expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
      }
      expect((await as(sessionToken, 'kv.list', { namespace: 'x y' })).status).toBe(422);
      expect((await as(sessionToken, 'kv.delete', { namespace: 'ui' })).status).toBe(422);
      expect(await entries(sessionToken)).toEqual([]);
    });
  });

  describe('badge bookmarks', () => {
    let badgeIds: number[];
    beforeAll(async () => {
      const rows: { id: number }[] = await ctx.dataSource.query(
        `INSERT INTO badges (badge_key, platform_badge_id, name)
         SELECT 'special:' || n, n, 'Badge ' || n FROM generate_series(900001, 900510) n RETURNING id`,
      );
      badgeIds = rows.map((row) => row.id).sort((a, b) => a - b);
    });
    const bookmarks = async (token: string) => {
      const res = await as(token, 'account.listBadgeBookmarks');
      expect(res.status).toBe(200);
      expect(res.body.$schema).toBe('http://api.test/schemas/V1AccountBadgeBookmarksResponseBody.json');
      return res.body.bookmarks as { badgeId: string; bookmarkedAt: string }[];
    };

    it('should bookmark and unbookmark badges, newest first, keeping the first bookmarkedAt', async () => {
      const { sessionToken } = await ctx.session(501);
      const [a, b] = [`bdg_${badgeIds[0]}`, `bdg_${badgeIds[1]}`];
      expect(await bookmarks(sessionToken)).toEqual([]);
      const done = await as(sessionToken, 'account.bookmarkBadge', { badgeId: a, bookmark: true });
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ $schema: 'http://api.test/schemas/V1AccountBookmarkBadgeResponseBody.json' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await as(sessionToken, 'account.bookmarkBadge', { badgeId: b, bookmark: true }).expect(200);
      const listed = await bookmarks(sessionToken);
      expect(listed.map((x) => x.badgeId)).toEqual([b, a]);
      expect(Date.parse(listed[1].bookmarkedAt)).toBeGreaterThan(Date.now() - 10_000);

      await as(sessionToken, 'account.bookmarkBadge', { badgeId: a, bookmark: true }).expect(200);
      expect(await bookmarks(sessionToken)).toEqual(listed);
      await as(sessionToken, 'account.bookmarkBadge', { badgeId: b, bookmark: false }).expect(200);
      await as(sessionToken, 'account.bookmarkBadge', { badgeId: b, bookmark: false }).expect(200);
      expect((await bookmarks(sessionToken)).map((x) => x.badgeId)).toEqual([a]);
      expect(await bookmarks((await ctx.session(502)).sessionToken)).toEqual([]);
    });

    it('should answer 404 for a badge the service does not know, and store nothing', async () => {
      const { sessionToken } = await ctx.session(503);
      for (const badgeId of ['bdg_0', `bdg_${badgeIds[badgeIds.length - 1] + 1000}`, 'bdg_9999999999'])
        for (const bookmark of [true, false]) {
          const res = await as(sessionToken, 'account.bookmarkBadge', { badgeId, bookmark });
          expect({ badgeId, bookmark, status: res.status }).toEqual({ badgeId, bookmark, status: 404 });
        }
      expect(await bookmarks(sessionToken)).toEqual([]);
    });

    it('should bound an account to 500 bookmarks, also when bookmarks race', async () => {
      const { sessionToken } = await ctx.session(504);
      await ctx.dataSource.query('INSERT INTO account_badge_bookmarks (account_id, badge_id) SELECT 504, unnest($1::int[])', [
        badgeIds.slice(0, 497),
      ]);
      const raced = await Promise.all(
        badgeIds.slice(497, 503).map((id) => as(sessionToken, 'account.bookmarkBadge', { badgeId: `bdg_${id}`, bookmark: true })),
      );
      expect(raced.map((res) => res.status).sort()).toEqual([200, 200, 200, 422, 422, 422]);
      expect(raced.find((res) => res.status === 422)!.body.errors[0]).toMatchObject({ location: 'body.badgeId' });
      expect(await bookmarks(sessionToken)).toHaveLength(500);
      // A bookmarked badge is still accepted at the bound; removing one makes room.
      await as(sessionToken, 'account.bookmarkBadge', { badgeId: `bdg_${badgeIds[0]}`, bookmark: true }).expect(200);
      await as(sessionToken, 'account.bookmarkBadge', { badgeId: `bdg_${badgeIds[0]}`, bookmark: false }).expect(200);
      await as(sessionToken, 'account.bookmarkBadge', { badgeId: `bdg_${badgeIds[509]}`, bookmark: true }).expect(200);
      expect(await bookmarks(sessionToken)).toHaveLength(500);
    });

    it('should refuse invalid bodies with a 422 naming the field', async () => {
      const { sessionToken } = await ctx.session(505);
      const cases: [object, string][] = [
        [{ badgeId: '123', bookmark: true }, 'body.badgeId'],
        [{ badgeId: 'bdg_x', bookmark: true }, 'body.badgeId'],
        [{ badgeId: 'bdg_12345678901', bookmark: true }, 'body.badgeId'],
        [{ badgeId: `bdg_${badgeIds[0]}`, bookmark: 'yes' }, 'body.bookmark'],
        [{ badgeId: `bdg_${badgeIds[0]}` }, 'body.bookmark'],
      ];
      for (const [body, location] of cases) {
        const res = await as(sessionToken, 'account.bookmarkBadge', body);
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
        expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
      }
      expect((await as(sessionToken, 'account.listBadgeBookmarks', { page: 1 })).status).toBe(422);
      expect(await bookmarks(sessionToken)).toEqual([]);
    });
  });

  it('should take user sessions only', async () => {
    const key = await ctx.apiKey(601);
    const operations: [string, object | undefined][] = [
      ['kv.set', { namespace: 'ui', key: 'k', value: 'v' }],
      ['kv.list', {}],
      ['kv.delete', { namespace: 'ui', key: 'k' }],
      ['account.bookmarkBadge', { badgeId: 'bdg_1', bookmark: true }],
      ['account.listBadgeBookmarks', undefined],
    ];
    for (const [op, body] of operations) expect({ op, status: (await as(key, op, body)).status }).toEqual({ op, status: 401 });
    expect(await ctx.dataSource.query('SELECT 1 FROM account_kv_entries WHERE account_id = 601')).toEqual([]);
  });
});
