import { startTestApp, TestContext } from '../support/test-app';
import { matchesDocument } from '../support/wire-answers';

/** Badge scouts: suggestions, the claimed review queue, submitting and revising reviews, single-tag edits. */
describe('badge tag reviews', () => {
  let ctx: TestContext;
  const keys: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const SCOUTS = [501, 502, 503, 504];
  const STAFF = 510;
  const PLAIN = 520;

  beforeAll(async () => {
    ctx = await startTestApp('tagreviews');
    // 40 apps of two badges each (normal and foil), then a special badge: 81 badges to review.
    await ctx.dataSource.query(`INSERT INTO apps (app_id, name) SELECT n, 'App ' || n FROM generate_series(1, 40) n`);
    await ctx.dataSource.query(
      `INSERT INTO badges (badge_key, app_id, platform_badge_id, is_foil, name, image, base_level, scarcity)
       SELECT 'app:' || n || ':' || CASE WHEN f THEN 'foil' ELSE 'normal' END, n, 1, f, 'Badge ' || n, 'https://img.test/' || n, 1, n * 10
         FROM generate_series(1, 40) n, (VALUES (false), (true)) AS v(f) ORDER BY n, f`,
    );
    await ctx.dataSource.query(`INSERT INTO badges (badge_key, platform_badge_id, name) VALUES ('special:1', 1, 'Years of Service')`);
    ids.normal = (await ctx.dataSource.query(`SELECT id FROM badges WHERE badge_key = 'app:1:normal'`))[0].id;
    ids.foil = (await ctx.dataSource.query(`SELECT id FROM badges WHERE badge_key = 'app:1:foil'`))[0].id;
    for (const accountId of [...SCOUTS, STAFF, PLAIN]) keys[accountId] = await ctx.apiKey(accountId);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) SELECT unnest($1::int[]), 'badge_scout'`, [SCOUTS]);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES ($1, 'staff')`, [STAFF]);
  });
  afterAll(() => ctx.close());

  const call = (accountId: number | null, op: string, body: object) => {
    const req = ctx
      .http()
      .post(`/v1/badge.${op}`)
      .expect(matchesDocument(`badge.${op}`));
    return (accountId === null ? req : req.set('Authorization', `Bearer ${keys[accountId]}`)).send(body);
  };
  const claimedIds = (body: { apps: { badges: { badgeId: string }[] }[] }) => body.apps.flatMap((app) => app.badges.map((b) => b.badgeId));

  it('should refuse callers without a credential (401) and without a tag-editing role (403), changing nothing', async () => {
    const bodies: Record<string, object> = {
      suggestTags: { badgeId: `bdg_${ids.foil}` },
      claimTagReviews: { limit: 2 },
      submitTagReview: { badgeId: `bdg_${ids.foil}`, skip: true },
      reviseTagReview: { badgeId: `bdg_${ids.foil}`, expectedReviewVersion: '1', colors: [] },
      tagBadge: { badgeId: `bdg_${ids.foil}`, colors: [{ id: 'col_red', remove: false }], designs: [], metadata: [] },
    };
    for (const [op, body] of Object.entries(bodies)) {
      expect((await call(null, op, body)).status).toBe(401);
      const refused = await call(PLAIN, op, body);
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    expect(await ctx.dataSource.query('SELECT * FROM badge_tag_reviews')).toEqual([]);
    expect(await ctx.dataSource.query('SELECT * FROM badge_tags')).toEqual([]);
  });

  it('should add and remove single tags, and suggest what the app’s other badges carry', async () => {
    const tagged = await call(SCOUTS[0], 'tagBadge', {
      badgeId: `bdg_${ids.normal}`,
      colors: [
        { id: 'col_red', remove: false },
        { id: 'col_blue', remove: false },
      ],
      designs: [{ name: 'Cat' }, { name: 'Rocket' }],
      metadata: [{ name: 'Holiday' }],
    });
    expect(tagged.status).toBe(200);
    expect(tagged.body.$schema).toBe('http://api.test/schemas/V1BadgeTagBadgeResponseBody.json');
    expect(tagged.body.colorTags).toEqual([
      { id: 'col_blue', name: 'Blue' },
      { id: 'col_red', name: 'Red' },
    ]);
    expect(tagged.body.designTags.map((t: { name: string }) => t.name)).toEqual(['Cat', 'Rocket']);
    const removed = await call(SCOUTS[0], 'tagBadge', {
      badgeId: `bdg_${ids.normal}`,
      colors: [{ id: 'col_blue', remove: true }],
      designs: [{ name: 'rocket', remove: true }],
      metadata: null,
    });
    expect(removed.status).toBe(200);
    expect(removed.body.colorTags).toEqual([{ id: 'col_red', name: 'Red' }]);
    expect(removed.body.designTags.map((t: { name: string }) => t.name)).toEqual(['Cat']);
    expect(removed.body.metadataTags.map((t: { name: string }) => t.name)).toEqual(['Holiday']);
    const cat = removed.body.designTags[0].id;

    const suggested = await call(SCOUTS[1], 'suggestTags', { badgeId: `bdg_${ids.foil}` }).expect(200);
    expect(suggested.body).toEqual({ $schema: 'http://api.test/schemas/BadgeSuggestTags.json', colors: ['col_red'], designs: [cat] });
    // A badge of another app has nothing to go by; an unknown badge is a 404.
    const other = await ctx.dataSource.query(`SELECT id FROM badges WHERE badge_key = 'app:2:normal'`);
    expect((await call(SCOUTS[1], 'suggestTags', { badgeId: `bdg_${other[0].id}` }).expect(200)).body).toMatchObject({
      colors: [],
      designs: [],
    });
    await call(SCOUTS[1], 'suggestTags', { badgeId: 'bdg_999999' }).expect(404);
    const edits = await ctx.dataSource.query('SELECT editor_account_id FROM badge_tag_edits WHERE badge_id = $1', [ids.normal]);
    expect(edits).toEqual([{ editor_account_id: SCOUTS[0] }, { editor_account_id: SCOUTS[0] }]);
  });

  it('should claim reviews for a while, renew the scout’s own claims and never give one review to two scouts', async () => {
    const first = await call(SCOUTS[0], 'claimTagReviews', { limit: 3 }).expect(200);
    expect(first.body.$schema).toBe('http://api.test/schemas/BadgeClaimTagReviewsResponseBody.json');
    expect(first.body.colors).toHaveLength(12);
    expect(first.body.designs.map((t: { name: string }) => t.name)).toEqual(['Cat', 'Rocket']);
    const mine = claimedIds(first.body);
    expect(mine).toEqual([`bdg_${ids.normal}`, `bdg_${ids.foil}`, expect.any(String)]);
    const [app] = first.body.apps;
    expect(app).toMatchObject({ appId: 1, appName: 'App 1' });
    const foil = app.badges.find((b: { badgeId: string }) => b.badgeId === `bdg_${ids.foil}`);
    expect(foil).toMatchObject({ isFoil: true, level: 1, name: 'Badge 1', imageUrl: 'https://img.test/1', scarcity: 10 });
    expect(foil.suggestions).toMatchObject({ colors: [{ id: 'col_red', coverage: 1 }], autoAudit: false, proposedDesigns: [] });
    const until = Date.parse(foil.claimedUntil) - Date.now();
    expect(until).toBeGreaterThan(14 * 60_000);
    expect(until).toBeLessThanOrEqual(15 * 60_000 + 5_000);

    // Claiming again returns the same reviews, renewed.
    expect(claimedIds((await call(SCOUTS[0], 'claimTagReviews', { limit: 3 }).expect(200)).body)).toEqual(mine);

    // Three scouts claiming at once, several times over: every review is held by one scout only.
    const racing = await Promise.all([1, 2, 3].flatMap((i) => [0, 1].map(() => call(SCOUTS[i], 'claimTagReviews', { limit: 7 }))));
    expect(racing.every((r) => r.status === 200)).toBe(true);
    const holders = await ctx.dataSource.query(
      'SELECT claimed_by, array_agg(badge_id) AS badges FROM badge_tag_reviews WHERE claimed_until > now() GROUP BY claimed_by',
    );
    const all = holders.flatMap((h: { badges: number[] }) => h.badges);
    expect(new Set(all).size).toBe(all.length);
    for (const [i, res] of racing.entries()) {
      const scout = SCOUTS[1 + Math.floor(i / 2)];
      const held = holders.find((h: { claimed_by: number }) => h.claimed_by === scout).badges.map((id: number) => `bdg_${id}`);
      for (const badgeId of claimedIds(res.body)) expect(held).toContain(badgeId);
      expect(claimedIds(res.body).filter((badgeId) => mine.includes(badgeId))).toEqual([]);
    }

    // An expired claim is free for another scout.
    await ctx.dataSource.query(`UPDATE badge_tag_reviews SET claimed_until = now() - interval '1 second' WHERE claimed_by = $1`, [
      SCOUTS[0],
    ]);
    const taken = claimedIds((await call(SCOUTS[1], 'claimTagReviews', { limit: 30 }).expect(200)).body);
    expect(taken).toEqual(expect.arrayContaining(mine));
  });

  it('should settle a claimed review once, by its holder only, then let it be revised with its version', async () => {
    // SCOUTS[1] now holds the reviews of app 1 (taken over above).
    const normal = `bdg_${ids.normal}`;
    await call(SCOUTS[0], 'submitTagReview', { badgeId: normal, colors: ['col_green'] }).expect(409);
    const submitted = await call(SCOUTS[1], 'submitTagReview', { badgeId: normal, colors: ['col_green'], designs: [{ name: 'Dog' }] });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      $schema: 'http://api.test/schemas/BadgeSubmitTagReviewResponseBody.json',
      colors: [{ id: 'col_green', name: 'Green' }],
      designs: [{ name: 'Dog' }],
      metadata: [{ name: 'Holiday' }],
      reviewVersion: '1',
      skipped: false,
    });
    await call(SCOUTS[1], 'submitTagReview', { badgeId: normal, colors: [] }).expect(409);
    // A settled review is never claimed again.
    const [{ n }] = await ctx.dataSource.query(
      'SELECT count(*)::int AS n FROM badge_tag_reviews WHERE badge_id = $1 AND completed_at IS NOT NULL AND claimed_until IS NULL',
      [ids.normal],
    );
    expect(n).toBe(1);

    const skipped = await call(SCOUTS[1], 'submitTagReview', { badgeId: `bdg_${ids.foil}`, skip: true, skipReason: 'art missing' });
    expect(skipped.status).toBe(200);
    expect(skipped.body).toMatchObject({ skipped: true, reviewVersion: '1', colors: [] });

    await call(SCOUTS[2], 'reviseTagReview', { badgeId: normal, expectedReviewVersion: '1', colors: [] }).expect(403);
    const revised = await call(SCOUTS[1], 'reviseTagReview', { badgeId: normal, expectedReviewVersion: '1', colors: ['col_red'] });
    expect(revised.status).toBe(200);
    expect(revised.body).toMatchObject({ colors: [{ id: 'col_red', name: 'Red' }], designs: [{ name: 'Dog' }], reviewVersion: '2' });
    await call(SCOUTS[1], 'reviseTagReview', { badgeId: normal, expectedReviewVersion: '1', colors: [] }).expect(409);
    // Staff correct anyone's review.
    const byStaff = await call(STAFF, 'reviseTagReview', { badgeId: normal, expectedReviewVersion: '2', metadata: [] }).expect(200);
    expect(byStaff.body).toMatchObject({ metadata: [], reviewVersion: '3' });
    const open = await ctx.dataSource.query(`SELECT id FROM badges WHERE badge_key = 'app:40:foil'`);
    await call(SCOUTS[1], 'reviseTagReview', { badgeId: `bdg_${open[0].id}`, expectedReviewVersion: '0', colors: [] }).expect(404);
  });

  it('should settle a badge’s open review when its tags are set by hand', async () => {
    await call(SCOUTS[3], 'claimTagReviews', { limit: 50 }).expect(200);
    const [open] = await ctx.dataSource.query(
      'SELECT r.badge_id, b.tags_version FROM badge_tag_reviews r JOIN badges b ON b.id = r.badge_id WHERE completed_at IS NULL LIMIT 1',
    );
    const set = await call(STAFF, 'setTags', {
      badgeId: `bdg_${open.badge_id}`,
      expectedTagsVersion: String(open.tags_version),
      colors: [],
    });
    expect(set.status).toBe(200);
    expect(set.body.closedReview).toBe(true);
    const again = await call(STAFF, 'setTags', { badgeId: `bdg_${open.badge_id}`, expectedTagsVersion: set.body.tagsVersion, colors: [] });
    expect(again.body.closedReview).toBe(false);
  });
});
