import { loggedPlans, renderPlan, scansWithoutIndex } from '../../scripts/bench/plan-text';

/** A plan as auto_explain logs it in JSON: each line of the message after the first led by a tab (server log format). */
function logged(prefix: string, ms: number, query: string, plan: object): string {
  const json = JSON.stringify({ 'Query Text': query, Plan: plan }, null, 2);
  return [`${prefix} LOG:  duration: ${ms} ms  plan:`, ...json.split('\n').map((line) => `\t${line}`)].join('\n');
}

const CARDS = {
  'Node Type': 'Hash Join',
  'Join Type': 'Right',
  'Actual Rows': 3,
  'Actual Loops': 1,
  'Actual Total Time': 0.14,
  'Hash Cond': '(r.account_id = a.account_id)',
  'Shared Hit Blocks': 7,
  'Shared Read Blocks': 3,
  Plans: [
    { 'Node Type': 'Seq Scan', 'Relation Name': 'account_roles', Alias: 'r', 'Actual Rows': 0, 'Actual Loops': 1 },
    {
      'Node Type': 'Hash',
      'Actual Rows': 3,
      'Actual Loops': 1,
      Plans: [
        {
          'Node Type': 'Index Scan',
          'Index Name': 'PK_accounts',
          'Relation Name': 'accounts',
          Alias: 'a',
          'Index Cond': "(account_id = ANY ('{1,2,3}'::integer[]))",
          'Actual Rows': 3,
          'Actual Loops': 1,
          'Actual Total Time': 0.05,
          'Shared Hit Blocks': 9,
        },
      ],
    },
  ],
};

describe('bench:plans reading of auto_explain plans', () => {
  it('finds each logged plan of the log with its database, duration and statement, past the lines between', () => {
    const log = [
      '2026-11-29 02:49:21.747 UTC [2201] LOG:  checkpoint complete: wrote 6344 buffers',
      logged('2026-11-29 02:55:22.474 UTC [8871] postgres@seed_1m', 0.204, 'SELECT cards\nFROM accounts a', CARDS),
      '2026-11-29 02:55:23.000 UTC [2201] LOG:  checkpoint starting: wal',
      logged('2026-11-29 02:55:23.100 UTC [8872] postgres@other', 1.5, 'SELECT 1', { 'Node Type': 'Result' }),
      '',
    ].join('\n');
    const plans = loggedPlans(log);
    expect(plans.map(({ database, ms, query }) => ({ database, ms, query }))).toEqual([
      { database: 'seed_1m', ms: 0.204, query: 'SELECT cards\nFROM accounts a' },
      { database: 'other', ms: 1.5, query: 'SELECT 1' },
    ]);
    expect(plans[0].plan['Node Type']).toBe('Hash Join');
  });

  it('writes a plan as EXPLAIN names its nodes, with conditions and the buffers read', () => {
    expect(renderPlan(CARDS)).toEqual([
      'Hash Right Join (rows=3 loops=1 time=0.140 ms)',
      '  Hash Cond: (r.account_id = a.account_id)',
      '  Buffers: shared hit=7 read=3',
      '  -> Seq Scan on account_roles r (rows=0 loops=1 time=? ms)',
      '  -> Hash (rows=3 loops=1 time=? ms)',
      '    -> Index Scan using PK_accounts on accounts a (rows=3 loops=1 time=0.050 ms)',
      "         Index Cond: (account_id = ANY ('{1,2,3}'::integer[]))",
      '         Buffers: shared hit=9',
    ]);
  });

  it('reports a sequential scan or an unbounded index walk of a population table, nothing else', () => {
    const tables = new Set(['accounts']);
    expect(scansWithoutIndex(CARDS, tables)).toEqual([]);
    expect(scansWithoutIndex(CARDS, new Set(['account_roles']))).toEqual(['Seq Scan on account_roles (0 rows)']);
    const walk = { 'Node Type': 'Index Only Scan', 'Index Name': 'ix_accounts_level_xp', 'Relation Name': 'accounts' };
    expect(scansWithoutIndex({ ...walk, 'Actual Rows': 50, 'Actual Loops': 1 }, tables)).toEqual([]);
    expect(scansWithoutIndex({ ...walk, 'Actual Rows': 20_000, 'Actual Loops': 1 }, tables)).toEqual([
      'Index Only Scan of ix_accounts_level_xp on accounts without an index condition (20000 rows)',
    ]);
    expect(scansWithoutIndex({ ...walk, 'Index Cond': '(level = 5)', 'Actual Rows': 20_000, 'Actual Loops': 1 }, tables)).toEqual([]);
  });
});
