import { startPipeline, PipelineContext } from '../support/pipeline';

describe('badge.listCrafters and app.listOwners', () => {
  let ctx: PipelineContext;
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    ctx = await startPipeline('listings');
    key = await ctx.apiKey(1);
    await ctx.startWorker();
    for (let accountId = 2; accountId <= 41; accountId++) {
      await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } }).expect(204);
    }
    for (let accountId = 2; accountId <= 41; accountId++) await ctx.waitForCompletion(accountId, key, 20_000);
  }, 60_000);
  afterAll(() => ctx.close());

  /** Follows `nextCursor` to the end and returns every row. */
  async function pageThrough(path: string, body: Record<string, unknown>, listKey: string) {
    const rows: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await ctx
        .http()
        .post(path)
        .set(auth())
        .send({ ...body, ...(cursor ? { cursor } : {}) })
        .expect(200);
      expect(res.body[listKey].length).toBeLessThanOrEqual(3);
      rows.push(...res.body[listKey]);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    return rows;
  }

  it('should page through the crafters of a badge, earliest first, with no gaps or repeats', async () => {
    const [{ badge_id: badgeId, holders }] = await ctx.dataSource.query(
      'SELECT badge_id, count(*)::int AS holders FROM account_badges GROUP BY badge_id ORDER BY count(*) DESC, badge_id LIMIT 1',
    );
    expect(holders).toBeGreaterThan(3);
    const rows = await pageThrough('/v1/badge.listCrafters', { badgeId: `bdg_${badgeId}`, limit: 3 }, 'crafters');
    const expected = await ctx.dataSource.query(
      'SELECT account_id, completion_time FROM account_badges WHERE badge_id = $1 ORDER BY completion_time, account_id',
      [badgeId],
    );
    expect(rows.map((r) => r.steamId)).toEqual(
      expected.map((r: { account_id: number }) => (76561197960265728n + BigInt(r.account_id)).toString()),
    );
    expect(rows[0].completedAt).toBe(expected[0].completion_time.toISOString());
    const first = await ctx
      .http()
      .post('/v1/badge.listCrafters')
      .set(auth())
      .send({ badgeId: `bdg_${badgeId}` })
      .expect(200);
    expect(first.body).toMatchObject({ maxPageSize: 25, trackedHolders: holders });
  });

  it('should page through the owners of an app by playtime on that app', async () => {
    const [{ app_id: appId, owners }] = await ctx.dataSource.query(
      'SELECT app_id, count(*)::int AS owners FROM account_apps GROUP BY app_id ORDER BY count(*) DESC, app_id LIMIT 1',
    );
    const rows = await pageThrough('/v1/app.listOwners', { appId, limit: 3 }, 'owners');
    const expected = await ctx.dataSource.query('SELECT playtime FROM account_apps WHERE app_id = $1 ORDER BY playtime DESC, account_id', [
      appId,
    ]);
    expect(rows).toHaveLength(owners);
    expect(rows.map((r) => r.playtime)).toEqual(expected.map((r: { playtime: number }) => r.playtime));
    const none = await ctx.http().post('/v1/app.listOwners').set(auth()).send({ appId: 987654321 }).expect(200);
    expect(none.body).toEqual({
      $schema: 'http://api.test/schemas/AppListOwnersResponseBody.json',
      owners: [],
      maxPageSize: 25,
      trackedOwners: 0,
    });
  });

  it('should scale the page size with the donor tier and clamp larger limits', async () => {
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'donator')`);
    const [{ app_id: appId }] = await ctx.dataSource.query(
      'SELECT app_id FROM account_apps GROUP BY app_id ORDER BY count(*) DESC LIMIT 1',
    );
    const res = await ctx.http().post('/v1/app.listOwners').set(auth()).send({ appId, limit: 5000 }).expect(200);
    expect(res.body.maxPageSize).toBe(100);
  });

  it('should let tag editors read and replace a badge’s tags with optimistic concurrency', async () => {
    const catalogue = await ctx.http().post('/v1/badge.listTags').set(auth()).expect(200);
    expect(catalogue.body.colorTags).toHaveLength(12);
    expect(catalogue.body.colorTags[0]).toEqual({
      id: expect.stringMatching(/^col_/),
      name: expect.any(String),
      hsl: expect.any(String),
      group: expect.any(String),
      hex: expect.stringMatching(/^#/),
      groupOwner: true,
    });
    const [{ id }] = await ctx.dataSource.query('SELECT id FROM badges ORDER BY id LIMIT 1');
    const badgeId = `bdg_${id}`;
    const tags = (path: string, body: Record<string, unknown>) =>
      ctx
        .http()
        .post(`/v1/badge.${path}`)
        .set(auth())
        .send({ badgeId, ...body });
    await tags('getTags', {}).expect(403);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (1, 'badge_scout') ON CONFLICT DO NOTHING`);
    const read = await tags('getTags', {}).expect(200);
    expect(read.body).toMatchObject({ badgeId, colors: [], designs: [], metadata: [], tagsVersion: '0' });
    expect(read.body.vocabulary.colors).toHaveLength(12);

    const set = await tags('setTags', {
      expectedTagsVersion: '0',
      colors: ['col_red'],
      designs: [{ name: 'Pixel Art' }],
      metadata: [{ name: 'Holiday' }],
    }).expect(200);
    expect(set.body).toMatchObject({
      colors: [{ id: 'col_red', name: 'Red' }],
      designs: [{ name: 'Pixel Art' }],
      tagsVersion: '1',
      closedReview: false,
    });
    await tags('setTags', { expectedTagsVersion: '0', colors: [] }).expect(409);
    const again = await tags('setTags', { expectedTagsVersion: '1', colors: [], designs: [{ name: 'pixel art' }] }).expect(200);
    expect(again.body.designs).toEqual(set.body.designs);
    expect(again.body.colors).toEqual([]);
    expect(again.body.metadata).toEqual(set.body.metadata);
    const unknown = await tags('setTags', { expectedTagsVersion: '2', colors: ['col_nope'] }).expect(422);
    expect(unknown.body.errors[0]).toMatchObject({ location: 'body.colors', value: 'col_nope' });
    const listed = await ctx.http().post('/v1/badge.listTags').set(auth()).expect(200);
    expect(listed.body.designTags.map((t: { name: string }) => t.name)).toEqual(['Pixel Art']);

    // Two editors from the same version at once: exactly one wins, the other is told to read again.
    const racers = await Promise.all([
      tags('setTags', { expectedTagsVersion: '2', colors: ['col_red'] }),
      tags('setTags', { expectedTagsVersion: '2', colors: [] }),
    ]);
    expect(racers.map((r) => r.status).sort()).toEqual([200, 409]);
    const edits = await ctx.dataSource.query(
      'SELECT tags_version, editor_account_id, colors, designs FROM badge_tag_edits WHERE badge_id = $1 ORDER BY tags_version',
      [id],
    );
    expect(edits.map((e: { tags_version: number }) => e.tags_version)).toEqual([1, 2, 3]);
    expect(edits[0]).toMatchObject({ editor_account_id: 1, colors: ['col_red'] });
    expect(edits[1].colors).toEqual([]);
  });

  it('should answer 422 for a malformed badge id or cursor and 404 for an unknown badge', async () => {
    await ctx.http().post('/v1/badge.listCrafters').set(auth()).send({ badgeId: '123' }).expect(422);
    await ctx.http().post('/v1/badge.listCrafters').set(auth()).send({ badgeId: 'bdg_999999' }).expect(404);
    const bad = await ctx.http().post('/v1/app.listOwners').set(auth()).send({ appId: 10, cursor: 'not-a-cursor' }).expect(422);
    expect(bad.body.errors[0].location).toBe('body.cursor');
  });
});
