/**
 * PreparingClient (src/database/preparing-client.ts) against the real PostgreSQL: a statement is prepared once per
 * connection under a name derived from its text and reused; what cannot or should not be prepared runs as before;
 * a connection never holds more than MAX_PER_CONNECTION of them. The API's own DataSource is used, so the pool is
 * configured exactly as the service runs it.
 */
import { QueryRunner } from 'typeorm';
import { AccountRoleEntity } from '../../src/account-records/entities/account-role.entity';
import { AccountEntity } from '../../src/account-records/entities/account.entity';
import { CardReplica } from '../../src/account-records/card-replica/card-replica.service';
import { LeaderboardAccountsService } from '../../src/account-records/cards/leaderboard-accounts.service';
import { MAX_PER_CONNECTION, statementName } from '../../src/database/preparing-client';
import { PROFILE_TEXT_SQL } from '../../src/accounts/mappers/profile-text';
import { queryWithoutJit } from '../../src/common/sql/query-without-jit';
import { startTestApp, TestContext } from '../support/test-app';

const PREPARED = `SELECT name, statement FROM pg_prepared_statements ORDER BY name`;
const PLANS = `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements`;

describe('statements prepared once per connection', () => {
  let ctx: TestContext;
  let runner: QueryRunner;

  beforeAll(async () => {
    ctx = await startTestApp('prepared');
  });
  beforeEach(async () => {
    // One query runner holds one connection, whose pg_prepared_statements is what it prepared.
    runner = ctx.dataSource.createQueryRunner();
    await runner.connect();
  });
  afterEach(async () => runner.release());
  afterAll(async () => ctx.close());

  const prepared = async () => (await runner.query(PREPARED)) as { name: string; statement: string }[];

  it('prepares a read once, under the name of its text, and reuses it with other parameters', async () => {
    const text = `SELECT $1::int + 1 AS next`;
    expect(await runner.query(text, [1])).toEqual([{ next: 2 }]);
    expect(await runner.query(text, [41])).toEqual([{ next: 42 }]);
    const mine = (await prepared()).filter((row) => row.statement === text);
    expect(mine).toEqual([{ name: statementName(text), statement: text }]);
  });

  it('keeps the generic plan of a card statement for fewer than ten accounts, with the same cards', async () => {
    await ctx.apiKey(1); // tracks account 1
    // Enough accounts, and statistics saying so, for the planner to price the array's length (rolled back after).
    await runner.startTransaction();
    const plans = async (match: string) =>
      ((await runner.query(PLANS)) as { statement: string; generic: number; custom: number }[]).filter((row) =>
        row.statement.includes(match),
      );
    try {
      await runner.query(`INSERT INTO accounts (account_id) SELECT generate_series(2000000, 2050000)`);
      await runner.query('ANALYZE accounts');
      // The service on this runner's connection alone, whose plan cache pg_prepared_statements shows.
      const cards = new LeaderboardAccountsService(
        runner.manager.getRepository(AccountEntity),
        runner.manager.getRepository(AccountRoleEntity),
        ctx.app.get(CardReplica),
      );
      for (let i = 0; i < 8; i++) {
        const { cards: shown, hidden } = await cards.withHidden([1, 1_000_000 + i]);
        expect([...shown.keys()]).toEqual([1]);
        expect(hidden.size).toBe(0);
      }
      const [statement] = await plans('AS hidden');
      // PostgreSQL plans its first five executions for their parameters, then keeps the generic plan.
      expect(statement).toMatchObject({ generic: 3, custom: 5 });
      // Why: the same text given the two ids as they are is planned again on every execution.
      const text = `${statement.statement}\n`;
      for (let i = 0; i < 8; i++) await runner.query(text, [[1, 1_000_000 + i]]);
      expect((await plans(text)).find((row) => row.statement === text)).toMatchObject({ generic: 0, custom: 8 });
    } finally {
      await runner.rollbackTransaction();
    }
  });

  it('keeps the generic plan of the profiles’ statement whatever the number of profiles read together', async () => {
    await ctx.apiKey(1); // tracks account 1
    await runner.startTransaction();
    try {
      // Enough accounts, and statistics saying so, for the planner to price an array it can see (rolled back after).
      await runner.query(`INSERT INTO accounts (account_id) SELECT generate_series(2000000, 2050000)`);
      await runner.query('ANALYZE accounts');
      for (let i = 0; i < 8; i++) {
        const ids = i % 2 ? [1] : [1, 2_000_000 + i, 3_000_000];
        const rows = (await runner.query(PROFILE_TEXT_SQL, [ids, ids.map(() => '')])) as { at: number }[];
        expect(rows.map((row) => row.at)).toEqual(i % 2 ? [1] : [1, 2]);
      }
      const [statement] = ((await runner.query(PLANS)) as { statement: string; generic: number; custom: number }[]).filter(
        (row) => row.statement === PROFILE_TEXT_SQL,
      );
      // Its arrays are read through sub-selects, whose length no plan sees: after five custom plans the generic one
      // is kept. Given to unnest as they are, a custom plan always looked cheaper, and each execution was planned.
      expect(statement).toMatchObject({ generic: 3, custom: 5 });
    } finally {
      await runner.rollbackTransaction();
    }
  });

  it('leaves several statements in one text, DDL and transaction control unnamed, and they still run', async () => {
    const before = (await prepared()).length;
    expect(statementName('SELECT 1; SELECT 2')).toBeNull();
    expect(statementName('CREATE TEMP TABLE t (x int)')).toBeNull();
    expect(statementName('BEGIN')).toBeNull();
    await runner.query('CREATE TEMP TABLE prepared_probe (x int)');
    await runner.query('INSERT INTO prepared_probe VALUES (1); INSERT INTO prepared_probe VALUES (2)');
    expect(await runner.query('SELECT count(*)::int AS n FROM prepared_probe')).toEqual([{ n: 2 }]);
    // Only the SELECTs (the count and the look at pg_prepared_statements itself) were prepared.
    const after = await prepared();
    expect(after.length).toBe(before + 1);
    expect(after.map((row) => row.statement)).toContain('SELECT count(*)::int AS n FROM prepared_probe');
  });

  it('keeps a transaction working across prepared statements, rollback included', async () => {
    await runner.query('CREATE TEMP TABLE prepared_tx (x int)');
    await runner.startTransaction();
    await runner.query('INSERT INTO prepared_tx (x) VALUES ($1)', [7]);
    expect(await runner.query('SELECT x FROM prepared_tx')).toEqual([{ x: 7 }]);
    await runner.rollbackTransaction();
    expect(await runner.query('SELECT x FROM prepared_tx')).toEqual([]);
  });

  it(`holds at most ${MAX_PER_CONNECTION} statements on a connection; later new texts run unnamed`, async () => {
    for (let i = 0; i < MAX_PER_CONNECTION + 20; i++) {
      expect(await runner.query(`SELECT $1::int * ${i} AS product`, [2])).toEqual([{ product: 2 * i }]);
    }
    expect((await prepared()).length).toBeLessThanOrEqual(MAX_PER_CONNECTION);
    // A text prepared before the bound was reached is still used under its name.
    expect(await runner.query(`SELECT $1::int + 1 AS next`, [9])).toEqual([{ next: 10 }]);
  });

  it('serves the operations through the real stack, past the executions after which a plan may turn generic', async () => {
    const key = await ctx.apiKey(1);
    const post = (path: string, body: object) => ctx.http().post(path).set('Authorization', `Bearer ${key}`).send(body);
    for (let i = 0; i < 8; i++) {
      expect((await post('/v1/stats.getStats', {})).status).toBe(200);
      // The profile's one statement (account row and extras) for a tracked account and for an unknown one.
      const tracked = await post('/v1/account.getInfo', { id: { accountId: 1 } });
      expect(tracked.status).toBe(200);
      expect(tracked.body).toMatchObject({ accountId: 1, currentRanks: null });
      expect((await post('/v1/account.getInfo', { id: { accountId: 1_000_000 + i } })).status).toBe(404);
    }
  });

  it('runs a statement without JIT compilation where asked, prepared like any other, and only that statement', async () => {
    const text = `SELECT current_setting('jit') AS jit, $1::int AS n`;
    const runs = await Promise.all([1, 2, 3].map((n) => queryWithoutJit(ctx.dataSource, text, [n])));
    expect(runs).toEqual([[{ jit: 'off', n: 1 }], [{ jit: 'off', n: 2 }], [{ jit: 'off', n: 3 }]]);
    // SET LOCAL ends with its transaction: the pool's connections keep the server's setting.
    const [{ setting }] = await ctx.dataSource.query(`SELECT reset_val AS setting FROM pg_settings WHERE name = 'jit'`);
    const plain = await Promise.all(Array.from({ length: 20 }, () => ctx.dataSource.query(`SELECT current_setting('jit') AS jit`)));
    expect(new Set(plain.map(([row]) => row.jit))).toEqual(new Set([setting]));
  });
});
