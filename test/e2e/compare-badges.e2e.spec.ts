import { startPipeline, PipelineContext } from '../support/pipeline';

interface TupleAccount {
  steamId: string;
  level: number;
  xp: number;
  completedAt?: string;
}
interface Tuple {
  appId: number;
  appName: string;
  appType: string;
  steamId: number;
  isEvent: boolean;
  isFoil: boolean;
  isSale: boolean;
  maxLevel: number;
  scarcity: number;
  trackedHolders: number;
  accounts: TupleAccount[];
}
/** A stored holding with its badge definition: what the reference comparison below works from. */
interface Row {
  accountId: number;
  appId: number | null;
  platformBadgeId: number;
  badgeId: number;
  isFoil: boolean;
  isEvent: boolean;
  isSale: boolean;
  scarcity: number;
  level: number;
}
type Body = Record<string, unknown>;

const PAGE = 50;
const STEAM_ID64_BASE = 76561197960265728n;
const steamIdOf = (accountId: number) => (STEAM_ID64_BASE + BigInt(accountId)).toString();
const keyOf = (t: { appId: number | null; isFoil: boolean; steamId: number }) => `${t.appId ?? 0}:${t.isFoil}:${t.steamId}`;
const id = (accountId: number) => ({ id: { accountId } });

/**
 * The comparison worked out from the stored rows in the test, independently of the service's SQL: the keys of the
 * tuples a request should list, in no order.
 */
function reference(rows: Row[], body: Body): string[] {
  const accounts = [...new Set((body.accounts as { id: { accountId: number } }[]).map((a) => a.id.accountId))];
  const ignore = new Set((body.ignore as string[]) ?? []);
  const appIds = body.appIds as number[] | undefined;
  const excluded = body.excludeAppIds as number[] | undefined;
  const types = (body.appTypes as string[] | undefined)?.map((t) => t.toLowerCase());
  const ranges = (body.ranges as { min?: number; max?: number }[]) ?? [];
  const kept = rows.filter(
    (r) =>
      accounts.includes(r.accountId) &&
      (body.filter === undefined || body.filter === 'all' || r.isFoil === (body.filter === 'foil')) &&
      !(ignore.has('event') && r.isEvent) &&
      !(ignore.has('sale') && r.isSale) &&
      !(ignore.has('steam') && r.appId === null) &&
      !(ignore.has('infinite') && !r.isFoil && (r.isEvent || r.isSale || (r.appId === null && r.platformBadgeId === 1))) &&
      (!appIds || (r.appId !== null && appIds.includes(r.appId))) &&
      (!excluded || r.appId === null || !excluded.includes(r.appId)) &&
      (!types || types.includes(r.appId === null ? 'steam' : 'game')) &&
      ranges.every((range) => r.scarcity >= (range.min ?? 0) && r.scarcity <= (range.max ?? Infinity)),
  );
  const byBadge = new Map<number, Row[]>();
  for (const r of kept) byBadge.set(r.badgeId, [...(byBadge.get(r.badgeId) ?? []), r]);
  const keys: string[] = [];
  for (const group of byBadge.values()) {
    const top = Math.max(...group.map((r) => r.level));
    const holds = (r: Row) =>
      body.match === 'tupleLevel' ? r.level === top : body.match === 'tupleMinLevel' ? r.level >= ((body.minLevel as number) ?? 1) : true;
    const holders = group.filter(holds).map((r) => r.accountId);
    const n = holders.length;
    const mode = body.mode ?? 'missing';
    if (mode === 'missing' ? n < 1 || n >= accounts.length : mode === 'ownedByAll' ? n !== accounts.length : n !== 1) continue;
    const difference = body.difference as { has: { id: { accountId: number } }; lacks: { id: { accountId: number } } } | undefined;
    if (difference && !(holders.includes(difference.has.id.accountId) && !holders.includes(difference.lacks.id.accountId))) continue;
    const [r] = group;
    keys.push(keyOf({ appId: r.appId, isFoil: r.isFoil, steamId: r.platformBadgeId }));
  }
  return keys.sort();
}

describe('account.compareBadges', () => {
  let ctx: PipelineContext;
  let key: string;
  let a: number, b: number, c: number;
  let rows: Row[];
  let vanityOfA: string;
  const compare = (body: Body) => ctx.http().post('/v1/account.compareBadges').set('Authorization', `Bearer ${key}`).send(body);
  /** Every page of a comparison, checking the paging fields on each. */
  const compareAll = async (body: Body): Promise<Tuple[]> => {
    const first = await compare(body).expect(200);
    const { totalHits, pages } = first.body;
    expect(pages).toBe(Math.ceil(totalHits / PAGE));
    const tuples: Tuple[] = [...first.body.tuples];
    for (let page = 2; page <= pages; page++) {
      const next = await compare({ ...body, page }).expect(200);
      expect(next.body).toMatchObject({ totalHits, pages });
      tuples.push(...next.body.tuples);
    }
    expect(tuples).toHaveLength(totalHits);
    return tuples;
  };
  const keys = (tuples: Tuple[]) => tuples.map(keyOf).sort();
  const three = () => ({ accounts: [id(a), id(b), id(c)] });

  beforeAll(async () => {
    ctx = await startPipeline('comparebadges');
    key = await ctx.apiKey(1);
    await ctx.startWorker();
    // The three accounts with the most badges among the first hundred: many shared badges, at differing levels.
    const tick = ctx.simulator.universe.tickAt(ctx.clock.now);
    const sizes = Array.from({ length: 98 }, (_, i) => i + 2).map((accountId) => ({
      accountId,
      size: ctx.simulator.universe.badges(accountId, tick).badges.length,
    }));
    [a, b, c] = sizes.sort((x, y) => y.size - x.size || x.accountId - y.accountId).map((s) => s.accountId);
    for (const accountId of [a, b, c]) {
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send(id(accountId)).expect(204);
    }
    for (const accountId of [a, b, c]) await ctx.waitForCompletion(accountId, key);
    // The platform marks no badge as event or sale: mark an app badge only A holds as event and one only B holds as
    // sale, by hand, to give those classes members.
    const only = `SELECT min(ab.badge_id) FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
                   WHERE ab.account_id = $1 AND b.app_id IS NOT NULL AND NOT b.is_foil
                     AND NOT EXISTS (SELECT 1 FROM account_badges o WHERE o.badge_id = ab.badge_id AND o.account_id = ANY($2))`;
    await ctx.dataSource.query(`UPDATE badges SET is_event = true WHERE id = (${only})`, [a, [b, c]]);
    await ctx.dataSource.query(`UPDATE badges SET is_sale = true WHERE id = (${only})`, [b, [a, c]]);
    rows = (
      await ctx.dataSource.query(
        `SELECT ab.account_id AS "accountId", b.app_id AS "appId", b.platform_badge_id AS "platformBadgeId", b.id AS "badgeId",
                b.is_foil AS "isFoil", b.is_event AS "isEvent", b.is_sale AS "isSale", b.scarcity, ab.level
           FROM account_badges ab JOIN badges b ON b.id = ab.badge_id`,
      )
    ).map((r: Row) => ({ ...r, scarcity: Number(r.scarcity) }));
    [{ vanity: vanityOfA }] = await ctx.dataSource.query('SELECT platform_vanity AS vanity FROM accounts WHERE account_id = $1', [a]);
  }, 60_000);
  afterAll(() => ctx.close());

  it('should echo the resolved accounts and give every compared account’s state per tuple', async () => {
    const selectors = [vanityOfA ? { vanity: { type: 'steam', value: vanityOfA.toUpperCase() } } : id(a), id(b), id(c)];
    const res = await compare({ accounts: selectors }).expect(200);
    const [{ avatar }] = await ctx.dataSource.query('SELECT avatar FROM accounts WHERE account_id = $1', [a]);
    expect(res.body.$schema).toMatch(/\/schemas\/V1AccountCompareBadgesResponseBody\.json$/);
    expect(res.body.accounts.map((r: { accountId: number }) => r.accountId)).toEqual([a, b, c]);
    expect(res.body.accounts[0]).toEqual({ accountId: a, steamId: steamIdOf(a), avatar, ...(vanityOfA ? { vanity: vanityOfA } : {}) });
    expect(res.body.tuples).toHaveLength(Math.min(PAGE, res.body.totalHits));
    const holding = new Map(rows.map((r) => [`${r.accountId}:${keyOf({ ...r, steamId: r.platformBadgeId })}`, r]));
    for (const tuple of res.body.tuples as Tuple[]) {
      expect(tuple.accounts.map((t) => t.steamId)).toEqual([a, b, c].map(steamIdOf));
      expect(tuple.appType).toBe(tuple.appId === 0 ? 'steam' : 'game');
      expect(tuple.maxLevel).toEqual(tuple.isFoil ? 1 : tuple.appId && !tuple.isEvent && !tuple.isSale ? 5 : expect.any(Number));
      [a, b, c].forEach((accountId, i) => {
        const held = holding.get(`${accountId}:${keyOf(tuple)}`);
        const state = tuple.accounts[i];
        if (held)
          expect(state).toEqual({
            steamId: steamIdOf(accountId),
            level: held.level,
            xp: expect.any(Number),
            completedAt: expect.any(String),
          });
        else expect(state).toEqual({ steamId: steamIdOf(accountId), level: 0, xp: 0 });
      });
    }
    // Default order: scarcity, highest first.
    const scarcities = res.body.tuples.map((t: Tuple) => t.scarcity);
    expect(scarcities).toEqual([...scarcities].sort((x, y) => y - x));
  });

  it('should select tuples by every mode and match', async () => {
    const found = new Map<string, string[]>();
    for (const mode of ['missing', 'ownedByAll', 'unique']) {
      for (const match of [{ match: 'tuple' }, { match: 'tupleLevel' }, { match: 'tupleMinLevel', minLevel: 3 }]) {
        const body = { ...three(), mode, ...match };
        const expected = reference(rows, body);
        expect({ body, keys: keys(await compareAll(body)) }).toEqual({ body, keys: expected });
        found.set(`${mode}/${match.match}`, expected);
      }
    }
    // The population makes every mode and match count: each combination finds something, and the matches differ.
    expect([...found].filter(([, expected]) => expected.length === 0).map(([name]) => name)).toEqual([]);
    for (const mode of ['missing', 'ownedByAll', 'unique']) {
      expect(new Set(['tuple', 'tupleLevel', 'tupleMinLevel'].map((match) => found.get(`${mode}/${match}`)!.join())).size).toBe(3);
    }
    // The defaults are missing and tuple; minLevel matters only with tupleMinLevel.
    expect(keys(await compareAll({ ...three(), minLevel: 4 }))).toEqual(reference(rows, { ...three(), mode: 'missing', match: 'tuple' }));
  });

  it('should narrow by difference, filter, ignore, apps, app types and ranges', async () => {
    const appId = rows.find((r) => r.accountId === a && r.appId !== null)!.appId!;
    const scarcities = rows.map((r) => r.scarcity).sort((x, y) => x - y);
    const bodies: Body[] = [
      { difference: { has: id(a), lacks: id(b) } },
      { difference: { has: id(b), lacks: id(a) }, mode: 'ownedByAll' },
      { difference: { has: id(c), lacks: id(a) }, match: 'tupleMinLevel', minLevel: 2 },
      { filter: 'foil' },
      { filter: 'normal', mode: 'unique' },
      { ignore: ['event'] },
      { ignore: ['sale', 'steam'], mode: 'ownedByAll' },
      { ignore: ['infinite'], mode: 'ownedByAll' },
      { appIds: [appId] },
      { excludeAppIds: [appId], mode: 'unique' },
      { appTypes: ['steam'], mode: 'ownedByAll' },
      { appTypes: ['GAME'] },
      { appTypes: ['dlc'] },
      {
        ranges: [
          { type: 'scarcity', min: scarcities[Math.floor(scarcities.length / 3)] },
          { type: 'scarcity', max: scarcities[scarcities.length - 10] },
        ],
      },
    ];
    for (const extra of bodies) {
      const body = { ...three(), ...extra };
      expect({ body, keys: keys(await compareAll(body)) }).toEqual({ body, keys: reference(rows, body) });
    }
    const all = await compareAll({ ...three(), mode: 'missing' });
    expect([all.some((t) => t.isEvent), all.some((t) => t.isSale)]).toEqual([true, true]);
    // Special badges (years of service at least) are compared too, whichever mode lists them.
    const special = await Promise.all(
      ['missing', 'ownedByAll', 'unique'].map((mode) => compareAll({ ...three(), mode, appTypes: ['steam'] })),
    );
    expect(special.flat().length).toBeGreaterThan(0);
    expect(special.flat().every((t) => t.appId === 0 && t.appType === 'steam')).toBe(true);
    const unique = await compareAll({ ...three(), mode: 'unique', ignore: ['event', 'sale', 'steam', 'infinite'] });
    expect(unique.length).toBeGreaterThan(0);
    expect(unique.every((t) => !t.isEvent && !t.isSale && t.appType === 'game')).toBe(true);
    // The difference names one of the compared accounts.
    const outside = await compare({ accounts: [id(a), id(b)], difference: { has: id(a), lacks: id(c) } }).expect(422);
    expect(outside.body.errors.map((e: { location: string }) => e.location)).toEqual(['body.difference.lacks']);
  });

  it('should order by every key in both directions', async () => {
    const highest = (t: Tuple, field: 'level' | 'xp') => Math.max(...t.accounts.map((s) => s[field]));
    const latest = (t: Tuple) => Math.max(...t.accounts.map((s) => (s.completedAt ? Date.parse(s.completedAt) : 0)));
    const sortKeys: Record<string, (t: Tuple) => number | string> = {
      scarcity: (t) => t.scarcity,
      level: (t) => highest(t, 'level'),
      xp: (t) => highest(t, 'xp'),
      completedAt: latest,
      // Names of app badges are their app's (special badges are left out: see ignore below).
      name: (t) => t.appName.toLowerCase(),
    };
    for (const [by, sortKey] of Object.entries(sortKeys)) {
      const body = { ...three(), mode: 'missing', ignore: ['steam'] };
      const desc = await compareAll({ ...body, order: { by } });
      const asc = await compareAll({ ...body, order: { by, direction: 'asc' } });
      const values = asc.map(sortKey);
      expect({ by, values }).toEqual({ by, values: [...values].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)) });
      expect(new Set(values).size).toBeGreaterThan(1);
      // Ties go to the badge id in the same direction, so one order is exactly the other reversed.
      expect(desc.map(keyOf)).toEqual(asc.map(keyOf).reverse());
    }
  });

  it('should page by number', async () => {
    const body = { ...three(), mode: 'missing' };
    const first = await compare(body).expect(200);
    expect(first.body.totalHits).toBeGreaterThan(PAGE);
    const second = await compare({ ...body, page: 2 }).expect(200);
    const seen = new Set([...first.body.tuples, ...second.body.tuples].map(keyOf));
    expect(seen.size).toBe(first.body.tuples.length + second.body.tuples.length);
    const beyond = await compare({ ...body, page: first.body.pages + 1 }).expect(200);
    expect(beyond.body).toMatchObject({ tuples: [], totalHits: first.body.totalHits, pages: first.body.pages });
    // A single account: nothing is missing, and all of its badges are its own.
    const alone = await compare({ accounts: [id(a)] }).expect(200);
    expect(alone.body.totalHits).toBe(0);
    const own = await compare({ accounts: [id(a)], mode: 'unique' }).expect(200);
    expect(own.body.totalHits).toBe(rows.filter((r) => r.accountId === a).length);
  });

  it('should compare an account named twice once', async () => {
    const res = await compare({ accounts: [id(a), id(b), id(a)], mode: 'ownedByAll' }).expect(200);
    expect(res.body.accounts.map((r: { accountId: number }) => r.accountId)).toEqual([a, b]);
    expect(res.body.totalHits).toBe(reference(rows, { accounts: [id(a), id(b)], mode: 'ownedByAll' }).length);
    expect(res.body.tuples[0].accounts).toHaveLength(2);
  });

  it('should answer 404 for an unknown account, naming it', async () => {
    const res = await compare({ accounts: [id(a), id(999_999)] }).expect(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toEqual(['body.accounts[1]']);
    await compare({ accounts: [id(a), id(b)], difference: { has: id(a), lacks: id(999_999) } }).expect(404);
  });

  it('should refuse more accounts than the limit, and bad fields, with 422', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => id(i + 2));
    const tooMany = await compare({ accounts: eleven }).expect(422);
    expect(tooMany.body.errors.map((e: { location: string }) => e.location)).toEqual(['body.accounts']);
    await compare({ accounts: Array.from({ length: 10 }, () => id(a)) }).expect(200);
    for (const accounts of [[], null, undefined]) {
      const res = await compare({ accounts }).expect(422);
      expect(res.body.errors[0].location).toBe('body.accounts');
    }
    const res = await compare({
      accounts: [id(a), {}],
      mode: 'all',
      match: 'level',
      filter: 'shiny',
      ignore: ['event', 'nope'],
      order: { by: 'holders' },
      ranges: [{ type: 'level', min: -1 }],
      page: 0,
      minLevel: 1.5,
      extra: true,
    }).expect(422);
    expect([...new Set(res.body.errors.map((e: { location: string }) => e.location))].sort()).toEqual([
      'body.extra',
      'body.filter',
      'body.ignore[1]',
      'body.match',
      'body.minLevel',
      'body.mode',
      'body.order.by',
      'body.page',
      'body.ranges[0].min',
      'body.ranges[0].type',
    ]);
    // An empty selector names its place.
    const empty = await compare({ accounts: [id(a), {}] }).expect(422);
    expect(empty.body.errors[0].location).toBe('body.accounts[1].id');
  });

  it('should need a credential', async () => {
    await ctx.http().post('/v1/account.compareBadges').send(three()).expect(401);
  });
});
