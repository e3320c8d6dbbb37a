import { RankEngine } from '../../src/ranks/rank-engine.service';
import { startPipeline, PipelineContext } from '../support/pipeline';

interface Row {
  account_id: number;
  score: number;
}
interface Previewed {
  steamId: string;
  rank: number;
  score: number;
  differenceToUs: number;
}

const STEAM_ID_BASE = 76561197960265728n;
const steamIdOf = (accountId: number) => String(STEAM_ID_BASE + BigInt(accountId));

/**
 * `leaderboard.previewAccountRank` against a model computed from PostgreSQL for every stored account and several
 * hypothetical scores: the board is score descending then account id, scores of 0 last by account id; the account
 * itself is taken out, and the previewed score goes in front of every other account scoring less, or as much when
 * it is hypothetical. The neighbours are the others just before and just after that place, unless hidden.
 */
describe('leaderboard.previewAccountRank', () => {
  let ctx: PipelineContext;
  let key: string;
  const preview = (body: Record<string, unknown>) =>
    ctx.http().post('/v1/leaderboard.previewAccountRank').set('Authorization', `Bearer ${key}`).send(body);

  beforeAll(async () => {
    ctx = await startPipeline('preview');
    key = await ctx.apiKey(30);
    await ctx.startWorker();
    for (let accountId = 2; accountId <= 21; accountId++) {
      await preview({ leaderboard: 'xp', id: { accountId } }).expect(404);
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send({ id: { accountId } }).expect(204);
    }
    for (let accountId = 2; accountId <= 21; accountId++) await ctx.waitForCompletion(accountId, key, 20_000);
    await ctx.stopWorker();
    // Two accounts scoring 0 (the board's tail, kept in PostgreSQL only), one tracked but never refreshed (not on
    // the board), two hidden; then the ranks are rebuilt from PostgreSQL.
    await ctx.dataSource.query('UPDATE accounts SET xp = 0 WHERE account_id IN (5, 9)');
    await ctx.dataSource.query('UPDATE accounts SET updated_at = NULL WHERE account_id = 13');
    await ctx.dataSource.query(
      `INSERT INTO account_settings (account_id, email, hidden) VALUES (7, 'a@users.invalid', true), (16, 'b@users.invalid', true)`,
    );
    await ctx.app.get(RankEngine).rebuild();
  }, 90_000);
  afterAll(() => ctx.close());

  async function model(): Promise<{ board: Row[]; tracked: Map<number, number>; hidden: Set<number> }> {
    const rows: (Row & { updated: boolean })[] = await ctx.dataSource.query(
      'SELECT account_id, xp AS score, updated_at IS NOT NULL AS updated FROM accounts',
    );
    const board = rows.filter((row) => row.updated);
    board.sort((a, b) => (b.score > 0 ? b.score : 0) - (a.score > 0 ? a.score : 0) || a.account_id - b.account_id);
    const hidden: { account_id: number }[] = await ctx.dataSource.query('SELECT account_id FROM account_settings WHERE hidden');
    return {
      board,
      tracked: new Map(rows.map((row) => [row.account_id, row.score])),
      hidden: new Set(hidden.map((row) => row.account_id)),
    };
  }

  /** The answer the model gives for `me` (null: no account) with its score, or a hypothetical one. */
  function expected(m: Awaited<ReturnType<typeof model>>, me: number | null, value?: number) {
    const onBoard = me !== null && m.board.some((row) => row.account_id === me);
    const others = m.board.filter((row) => row.account_id !== me);
    const score = value ?? (me === null ? 0 : m.tracked.get(me)!);
    // Scores of 0 are listed after every score, the account first among them, and are unranked (rank 0).
    const ahead =
      value === undefined && onBoard && score > 0
        ? m.board.findIndex((row) => row.account_id === me)
        : others.filter((row) => row.score > score).length;
    const rank = ahead + 1;
    const row = (r: Row, at: number) => ({
      steamId: steamIdOf(r.account_id),
      rank: r.score > 0 ? at : 0,
      score: r.score,
      differenceToUs: r.score - score,
    });
    const above = ahead > 0 ? others[ahead - 1] : undefined;
    const below = others[ahead];
    return {
      ...(me !== null ? { ownAccount: { steamId: steamIdOf(me), rank: score > 0 ? rank : 0, score, differenceToUs: 0 } } : {}),
      ...(above && !m.hidden.has(above.account_id) ? { rankedAbove: row(above, rank - 1) } : {}),
      ...(below && !m.hidden.has(below.account_id) ? { rankedBelow: row(below, rank + 1) } : {}),
      rankedOutOf: m.board.length,
    };
  }

  const pick = (body: Record<string, unknown>) => {
    const rows = ['ownAccount', 'rankedAbove', 'rankedBelow'] as const;
    const out: Record<string, unknown> = { rankedOutOf: body.rankedOutOf };
    for (const name of rows) {
      const row = body[name] as Previewed | undefined;
      if (row) out[name] = { steamId: row.steamId, rank: row.rank, score: row.score, differenceToUs: row.differenceToUs };
    }
    return out;
  };

  it('should place every account, on the board or not, where a recomputation does, with its visible neighbours', async () => {
    const m = await model();
    expect(m.board.length).toBe(19);
    for (const accountId of m.tracked.keys()) {
      const res = await preview({ leaderboard: 'xp', id: { accountId } }).expect(200);
      expect({ accountId, ...pick(res.body) }).toEqual({ accountId, ...expected(m, accountId) });
    }
  }, 30_000);

  it('should place hypothetical scores, with and without an account, in front of the accounts scoring as much', async () => {
    const m = await model();
    const scores = [...new Set(m.board.map((row) => row.score))];
    const values = [0, 1, 2_000_000_000, ...scores, ...scores.map((s) => s + 1), ...scores.filter((s) => s > 0).map((s) => s - 1)];
    for (const value of values) {
      const alone = await preview({ leaderboard: 'xp', value }).expect(200);
      expect({ value, ...pick(alone.body) }).toEqual({ value, ...expected(m, null, value) });
      for (const accountId of [2, 5, 13, m.board[0].account_id, m.board[m.board.length - 1].account_id]) {
        const res = await preview({ leaderboard: 'xp', id: { accountId }, value }).expect(200);
        expect({ accountId, value, ...pick(res.body) }).toEqual({ accountId, value, ...expected(m, accountId, value) });
      }
    }
  }, 60_000);

  it('should answer 404 for an account that is not tracked, and read an account named by vanity', async () => {
    await preview({ leaderboard: 'xp', id: { accountId: 999_999 } }).expect(404);
    await preview({ leaderboard: 'xp', id: { accountId: 999_999 }, value: 10 }).expect(404);
    const [{ account_id, vanity }] = await ctx.dataSource.query(
      'SELECT account_id, platform_vanity AS vanity FROM accounts WHERE platform_vanity IS NOT NULL AND updated_at IS NOT NULL LIMIT 1',
    );
    const byVanity = await preview({ leaderboard: 'xp', vanity: { type: 'steam', value: vanity } }).expect(200);
    const byId = await preview({ leaderboard: 'xp', id: { accountId: account_id } }).expect(200);
    expect(byVanity.body).toEqual(byId.body);
  });
});
