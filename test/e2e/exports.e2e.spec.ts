import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { CRAFTING_PLAN_COLUMNS } from '../../src/exports/account-export.service';
import { ExportLimits } from '../../src/exports/export-limits';
import { LEADERBOARD_EXPORT_COLUMNS } from '../../src/exports/leaderboard-export.service';
import { writeCatalogue } from '../support/catalogue';
import { startPipeline, PipelineContext } from '../support/pipeline';
import type { Response } from 'superagent';

/** Positions per batch in this file: small, so every export here walks several batches (and the zero tail by keyset). */
const BATCH = 3;
const PER_MINUTE = 25;

type Row = Record<string, unknown>;

/** RFC 4180: quoted cells with doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect({ cell, record }).toEqual({ cell: '', record: [] });
  return records;
}

/** What a row's value reads as in a CSV cell, the formula guard (a leading `'`) taken off. */
const cellOf = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

describe('account.export and leaderboard.export', () => {
  let ctx: PipelineContext;
  let reader: string;
  /** The apps of account 2's crafting plan (see beforeAll). */
  let planApps: number[];
  /** Its badges below their highest level, `appId:badgeType`, in the plan's app id order. */
  let plannedBadges: string[];
  const idOf = (steamId: string) => Number(BigInt(steamId) - 76561197960265728n);
  // The body as text whatever its media type (superagent parses JSON only).
  const asText = (res: Response, done: (error: Error | null, body: string) => void) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  };
  const post = (operation: string, body: object, token: string) =>
    ctx.http().post(`/v1/${operation}`).set('Authorization', `Bearer ${token}`).send(body).buffer(true).parse(asText);
  const lines = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row);

  /** Every visible row of a board as leaderboard.getAccountLeaderboard pages it, windows of 100. */
  async function boardRows(body: object, token: string): Promise<Row[]> {
    const rows: Row[] = [];
    for (let start = 1; ; start += 100) {
      const page = await ctx
        .http()
        .post('/v1/leaderboard.getAccountLeaderboard')
        .set('Authorization', `Bearer ${token}`)
        .send({ ...body, start, end: start + 99 })
        .expect(200);
      rows.push(...(page.body.accounts as (Row | null)[]).filter((row): row is Row => row !== null));
      if (start + 99 >= page.body.rankedOutOf) return rows;
    }
  }

  beforeAll(async () => {
    ctx = await startPipeline('exports', { env: { EXPORTS_BATCH: String(BATCH), EXPORTS_PER_MINUTE: String(PER_MINUTE) } });
    reader = await ctx.apiKey(200);
    await ctx.startWorker();
    for (let accountId = 2; accountId <= 31; accountId++)
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${reader}`).send({ id: { accountId } }).expect(204);
    for (let accountId = 2; accountId <= 31; accountId++) await ctx.waitForCompletion(accountId, reader, 20_000);
    // One account chose to be hidden (its own session, as the web app does): left out of exports as it is nulled out of
    // the windows.
    const { sessionToken } = await ctx.session(5);
    await ctx
      .http()
      .post('/v1/account.updateSettings')
      .set('Authorization', `Bearer ${sessionToken}`)
      .send({ hidden: true, language: 'en', vanity: null })
      .expect(204);
    // Account 2's crafting plan: written before any plan is made (the planner holds the sets in process), with the
    // worker stopped so no pricing job rewrites them. Four games of its library get a set of three cards (names no
    // inventory holds); every card is quoted but one, never listed, of the first app whose normal badge is planned.
    await ctx.stopWorker();
    const library: { app_id: number }[] = await ctx.dataSource.query(
      `SELECT app_id FROM account_apps WHERE account_id = 2 ORDER BY app_id LIMIT 4`,
    );
    expect(library).toHaveLength(4);
    planApps = library.map((row) => row.app_id);
    // The badges the plan holds: those below their highest level (5 normal, 1 foil), by app, the normal one first.
    const planned: { app_id: number; badge_type: string }[] = await ctx.dataSource.query(
      `WITH lv AS (SELECT b.app_id, b.is_foil, max(ab.level) AS level FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
                    WHERE ab.account_id = 2 AND b.app_id = ANY($1) GROUP BY 1, 2)
       SELECT k.app_id, t.badge_type FROM unnest($1::int[]) k(app_id)
        CROSS JOIN (VALUES ('normal', false, 5), ('foil', true, 1)) t(badge_type, is_foil, max_level)
         LEFT JOIN lv ON lv.app_id = k.app_id AND lv.is_foil = t.is_foil
        WHERE COALESCE(lv.level, 0) < t.max_level ORDER BY k.app_id, t.is_foil`,
      [planApps],
    );
    plannedBadges = planned.map((row) => `${row.app_id}:${row.badge_type}`);
    const unlisted = planned.find((row) => row.badge_type === 'normal')?.app_id;
    expect(unlisted).toBeDefined();
    await ctx.dataSource.query('UPDATE app_card_counts SET card_names = NULL, cards = 0');
    await ctx.dataSource.query('DELETE FROM card_market_prices');
    for (const [i, appId] of planApps.entries()) {
      const names = [1, 2, 3].map((n) => `${appId}-Card ${n}`);
      await ctx.dataSource.query(
        `INSERT INTO app_card_counts (app_id, cards, card_names, cards_checked_at) VALUES ($1, 3, $2, now())
         ON CONFLICT (app_id) DO UPDATE SET cards = EXCLUDED.cards, card_names = EXCLUDED.card_names`,
        [appId, names],
      );
      for (const [j, name] of names.entries())
        for (const type of ['normal', 'foil'] as const)
          await ctx.dataSource.query(
            `INSERT INTO card_market_prices (app_id, badge_type, market_hash_name, lowest_price, buy_price, volume, updated_at)
             VALUES ($1, $2, $3, $4, 1, 3, now())`,
            [
              appId,
              type,
              type === 'foil' ? `${name} (Foil)` : name,
              appId === unlisted && j === 2 && type === 'normal' ? null : 5 + i * 10 + j,
            ],
          );
    }
    // Written by hand after the API's planner books loaded: recorded as a bulk write, which they read whole again.
    await writeCatalogue(ctx.app, { sets: true, prices: true }, async () => undefined);
  }, 90_000);
  afterAll(() => ctx.close());

  it('should export a whole board as NDJSON: the windows’ rows in board order, equal to SQL’s, hidden accounts left out', async () => {
    for (const leaderboard of ['xp', 'bans']) {
      const column = leaderboard === 'xp' ? 'xp' : 'bans';
      const res = await post('leaderboard.export', { leaderboard }, reader).expect(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      const exported = lines(res.body as string);
      expect(exported).toEqual(await boardRows({ leaderboard }, reader));
      // Recomputed: scored accounts by score then id, those scoring 0 after them by id (rank 0), the hidden one out.
      const expected: { account_id: number; score: number }[] = await ctx.dataSource.query(
        `SELECT account_id, ${column} AS score FROM accounts WHERE updated_at IS NOT NULL AND account_id <> 5
          ORDER BY ${column} DESC, account_id`,
      );
      expect(exported.map((row) => [idOf(row.steamId as string), row[column]])).toEqual(
        expected.map((r) => [r.account_id, Number(r.score)]),
      );
      expect(exported.length).toBe(29);
      if (leaderboard === 'bans') {
        // The zero tail, walked by keyset over more than one batch.
        const zeros = exported.filter((row) => row.rank === 0);
        expect(zeros.length).toBeGreaterThan(BATCH);
      }
    }
    const range = lines((await post('leaderboard.export', { leaderboard: 'xp', start: 4, end: 17 }, reader).expect(200)).body as string);
    const ranked: { account_id: number; rank: number }[] = await ctx.dataSource.query(
      `SELECT account_id, rank FROM (SELECT account_id, row_number() OVER (ORDER BY xp DESC, account_id)::int AS rank
          FROM accounts WHERE updated_at IS NOT NULL) r WHERE rank BETWEEN 4 AND 17 AND account_id <> 5 ORDER BY rank`,
    );
    expect(range.map((row) => [idOf(row.steamId as string), row.rank])).toEqual(ranked.map((r) => [r.account_id, r.rank]));
  });

  it('should export an app board with each row’s playtime on the app, as its window does', async () => {
    const [{ app_id: appId }] = await ctx.dataSource.query(
      'SELECT app_id FROM account_apps GROUP BY app_id ORDER BY count(*) DESC, app_id LIMIT 1',
    );
    const body = { leaderboard: 'app_playtime', app: { appId } };
    const exported = lines((await post('leaderboard.export', body, reader).expect(200)).body as string);
    expect(exported).toEqual(await boardRows(body, reader));
    const playtimes: { account_id: number; playtime: number }[] = await ctx.dataSource.query(
      `SELECT aa.account_id, aa.playtime FROM account_apps aa JOIN accounts a ON a.account_id = aa.account_id
        WHERE aa.app_id = $1 AND a.updated_at IS NOT NULL AND aa.account_id <> 5 ORDER BY aa.playtime DESC, aa.account_id`,
      [appId],
    );
    expect(exported.map((row) => [idOf(row.steamId as string), row.appPlaytime])).toEqual(playtimes.map((r) => [r.account_id, r.playtime]));
    await post('leaderboard.export', { leaderboard: 'app_playtime', app: { appId: 999_999_999 } }, reader).expect(404);
  });

  it('should write the same rows as CSV, column by column, under the documented header', async () => {
    const ndjson = lines((await post('leaderboard.export', { leaderboard: 'xp' }, reader).expect(200)).body as string);
    const res = await post('leaderboard.export', { leaderboard: 'xp', format: 'csv' }, reader).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="leaderboard-xp.csv"');
    const [header, ...records] = parseCsv(res.body as string);
    expect(header).toEqual([...LEADERBOARD_EXPORT_COLUMNS]);
    expect(records.map((record) => record.map(unguard))).toEqual(ndjson.map((row) => header.map((column) => cellOf(row[column]))));
    expect(records.length).toBe(29);
  });

  it('should export an account’s profile, badges and apps as the reads give them, the caller’s own when none is named', async () => {
    const key = await ctx.apiKey(3);
    const res = await post('account.export', { id: { accountId: 2 } }, key).expect(200);
    const exported = lines(res.body as string);
    const of = (section: string) => exported.filter((line) => line.section === section).map((line) => line.data as Row);
    expect([...new Set(exported.map((line) => line.section))]).toEqual(['profile', 'badges', 'apps', 'craftingPlan']);

    const info = await ctx
      .http()
      .post('/v1/account.getInfo')
      .set('Authorization', `Bearer ${key}`)
      .send({ id: { accountId: 2 } });
    const { $schema: _schema, ...profile } = info.body as Row;
    expect(of('profile')).toEqual([profile]);

    const pages = async (operation: string, field: string) => {
      const rows: Row[] = [];
      for (let page = 1; ; page++) {
        const answer = await ctx
          .http()
          .post(`/v1/${operation}`)
          .set('Authorization', `Bearer ${key}`)
          .send({ id: { accountId: 2 }, page });
        rows.push(...(answer.body[field] as Row[]));
        if (page >= answer.body.pages) return rows;
      }
    };
    const sorted = (rows: Row[]) => rows.map((row) => JSON.stringify(row)).sort();
    const [{ badges, apps }] = await ctx.dataSource.query(
      `SELECT (SELECT count(*)::int FROM account_badges WHERE account_id = 2) AS badges,
              (SELECT count(*)::int FROM account_apps WHERE account_id = 2) AS apps`,
    );
    expect(badges).toBeGreaterThan(BATCH);
    expect(apps).toBeGreaterThan(BATCH);
    expect(of('badges')).toHaveLength(badges);
    expect(of('apps')).toHaveLength(apps);
    expect(sorted(of('badges'))).toEqual(sorted(await pages('account.listBadges', 'badges')));
    expect(sorted(of('apps'))).toEqual(sorted(await pages('account.listApps', 'apps')));

    // Named by nothing: the caller's own (account 3), here its apps alone, as CSV, the same rows.
    const own = lines((await post('account.export', { sections: ['apps'] }, key).expect(200)).body as string);
    const csv = await post('account.export', { sections: ['apps'], format: 'csv' }, key).expect(200);
    const [header, ...records] = parseCsv(csv.body as string);
    expect(header).toEqual(['id', 'name', 'image', 'playtime', 'price']);
    const [{ n }] = await ctx.dataSource.query('SELECT count(*)::int AS n FROM account_apps WHERE account_id = 3');
    expect(own).toHaveLength(n);
    expect(records.map((record) => record.map(unguard))).toEqual(
      own.map((line) => header.map((column) => cellOf((line.data as Row)[column]))),
    );
  });

  it('should export every badge of the crafting plan as account.getCraftingPlan pages it, as NDJSON and as CSV', async () => {
    const key = await ctx.apiKey(9);
    const named = lines(
      (await post('account.export', { id: { accountId: 2 }, sections: ['craftingPlan'] }, key).expect(200)).body as string,
    );
    expect(named.every((line) => line.section === 'craftingPlan')).toBe(true);
    const badges = named.map((line) => line.data as Row & { cards: Row[] });
    // The read's pages, by app id: the same badges, cards and all.
    const read: Row[] = [];
    for (let page = 1; ; page++) {
      const answer = await ctx
        .http()
        .post('/v1/account.getCraftingPlan')
        .set('Authorization', `Bearer ${key}`)
        .send({ id: { accountId: 2 }, order: { by: 'appId' }, limit: 3, page })
        .expect(200);
      read.push(...(answer.body.badges as Row[]));
      if (page >= answer.body.pages) break;
    }
    expect(badges).toEqual(read);
    // Recomputed from the sets written: the badges below their highest level, every card of the set in order, missing
    // (nothing held), the next level's cost their sum; the app whose card is never listed has an unknown normal cost.
    const sets: { app_id: number; card_names: string[] }[] = await ctx.dataSource.query(
      `SELECT app_id, card_names FROM app_card_counts WHERE cardinality(card_names) > 0 ORDER BY app_id`,
    );
    expect(sets.map((set) => set.app_id)).toEqual(planApps);
    expect(plannedBadges.length).toBeGreaterThan(0);
    expect(badges.map((badge) => `${badge.appId}:${badge.badgeType}`)).toEqual(plannedBadges);
    for (const badge of badges) {
      const names = sets.find((set) => set.app_id === badge.appId)!.card_names;
      expect(badge.cards.map((card) => card.marketHashName)).toEqual(
        badge.badgeType === 'foil' ? names.map((name) => `${name} (Foil)`) : names,
      );
      expect(badge.missingCards).toBe(3);
      const prices = badge.cards.map((card) => card.lowestPrice as number | null);
      expect(badge.cost).toBe(prices.includes(null) ? null : prices.reduce((a, b) => a! + b!, 0));
    }
    expect(badges.filter((badge) => badge.cost === null)).toHaveLength(1);

    // The defaulted sections carry the same section; CSV is its table, the cards flattened into one cell.
    const all = lines((await post('account.export', { id: { accountId: 2 } }, key).expect(200)).body as string);
    expect(all.filter((line) => line.section === 'craftingPlan')).toEqual(named);
    const csv = await post('account.export', { id: { accountId: 2 }, sections: ['craftingPlan'], format: 'csv' }, key).expect(200);
    const [header, ...records] = parseCsv(csv.body as string);
    expect(header).toEqual([...CRAFTING_PLAN_COLUMNS]);
    expect(records).toEqual(
      badges.map((badge) =>
        header.map((column) =>
          column === 'cards'
            ? badge.cards.map((card) => `${card.held}x ${card.marketHashName} @${card.lowestPrice ?? '?'}`).join('; ')
            : cellOf(badge[column]),
        ),
      ),
    );
  });

  it('should refuse a crafting plan asked for by name with the read’s problem, and leave it out of defaulted sections', async () => {
    const key = await ctx.apiKey(10);
    await ctx.dataSource.query(`UPDATE accounts SET inventory_privacy = 'private' WHERE account_id = 2`);
    try {
      const refused = await post('account.export', { id: { accountId: 2 }, sections: ['profile', 'craftingPlan'] }, key).expect(403);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(refused.body as string).detail).toContain('inventory');
      const csv = await post('account.export', { id: { accountId: 2 }, sections: ['craftingPlan'], format: 'csv' }, key).expect(403);
      expect(csv.headers['content-type']).toMatch(/^application\/problem\+json/);
      const defaulted = lines((await post('account.export', { id: { accountId: 2 } }, key).expect(200)).body as string);
      expect([...new Set(defaulted.map((line) => line.section))]).toEqual(['profile', 'badges', 'apps']);
    } finally {
      await ctx.dataSource.query(`UPDATE accounts SET inventory_privacy = 'public' WHERE account_id = 2`);
    }
    // Public again: the section is back (the refusal is read per export, not held).
    const back = lines(
      (await post('account.export', { id: { accountId: 2 }, sections: ['craftingPlan'] }, key).expect(200)).body as string,
    );
    expect(back.length).toBe(plannedBadges.length);
  });

  it('should answer problems before the first row: an untracked account, several sections as CSV, end before start', async () => {
    const key = await ctx.apiKey(4);
    const untracked = await post('account.export', { id: { accountId: 250 } }, key).expect(404);
    expect(untracked.headers['content-type']).toMatch(/^application\/problem\+json/);
    await post('account.export', { format: 'csv' }, key).expect(422);
    await post('account.export', { sections: ['profile'], format: 'xml' }, key).expect(422);
    await post('leaderboard.export', { leaderboard: 'xp', start: 9, end: 3 }, key).expect(422);
    await ctx.http().post('/v1/leaderboard.export').send({ leaderboard: 'xp' }).expect(401);
  });

  it('should stop reading when the client goes away mid-stream, and give its slot back', async () => {
    const limits = ctx.app.get(ExportLimits);
    const before = limits.state();
    const server = ctx.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const key = await ctx.apiKey(6);
    const received = await new Promise<string>((resolve, reject) => {
      const data = JSON.stringify({ leaderboard: 'bans' });
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/leaderboard.export',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), Authorization: `Bearer ${key}` },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          // The first batch, then gone.
          res.once('data', (chunk: Buffer) => {
            req.destroy();
            resolve(chunk.toString('utf8'));
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
      req.end(data);
    });
    expect(received.split('\n').filter(Boolean).length).toBeLessThan(29);
    for (let waited = 0; limits.state().open !== 0 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(limits.state()).toEqual({ open: 0, completed: before.completed, aborted: before.aborted + 1 });
    // The service goes on serving exports (the slot was given back).
    const next = lines((await post('leaderboard.export', { leaderboard: 'bans' }, key).expect(200)).body as string);
    expect(next).toHaveLength(29);
  });

  it('should answer 429 with Retry-After past the starts allowed a minute, per account', async () => {
    const key = await ctx.apiKey(7);
    for (let i = 0; i < PER_MINUTE; i++) await post('leaderboard.export', { leaderboard: 'xp', end: 1 }, key).expect(200);
    const refused = await post('leaderboard.export', { leaderboard: 'xp', end: 1 }, key).expect(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body as string)).toMatchObject({ status: 429 });
    await post('account.export', { sections: ['profile'] }, key).expect(429);
    // Another account's starts are its own.
    await post('leaderboard.export', { leaderboard: 'xp', end: 1 }, await ctx.apiKey(8)).expect(200);
  });
});
