/**
 * The plan walk of the request-path index check (test/e2e/query-plans.e2e.spec.ts): which scans of the checked tables
 * no index bounds, in a plan PostgreSQL gives with Seq Scans disabled. See that spec for why and how.
 */
import { DataSource, QueryRunner } from 'typeorm';

/** The tables whose request-path reads must be served from an index. */
export const TABLES = new Set(['accounts', 'account_badges', 'account_apps', 'account_friends', 'groups']);

export interface Offender {
  kind: string;
  table: string;
  index?: string;
  filter?: string;
  /** The condition of a join that could probe this scan's table by index instead (its inner or nullable side). */
  join?: string;
}

interface PlanNode {
  'Node Type': string;
  'Join Type'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Hash Cond'?: string;
  'Merge Cond'?: string;
  'Join Filter'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/** The query to plan: the statement itself for SELECT / WITH, the cursor's query for DECLARE … CURSOR; else null. */
export function plannable(sql: string): string | null {
  const text = sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  if (/^\(*\s*(select|with)\b/i.test(text)) return text;
  const cursor = /^declare\s+\S+[\s\S]*?\bcursor\b[\s\S]*?\bfor\s+([\s\S]+)$/i.exec(text);
  return cursor && /^\(*\s*(select|with)\b/i.test(cursor[1]) ? cursor[1] : null;
}

/** Nodes that pass rows up as they come, so that a Limit above them stops the scan below early. */
const STREAMING = new Set([
  'Limit',
  'Nested Loop',
  'Merge Join',
  'Result',
  'Subquery Scan',
  'Unique',
  'Append',
  'Merge Append',
  'LockRows',
]);
/** Nodes between a join and a scan that keep the scan's rows as they are, so the join's key still applies to them. */
const THROUGH = new Set([
  'Hash',
  'Sort',
  'Incremental Sort',
  'Materialize',
  'Memoize',
  'Result',
  'Bitmap Heap Scan',
  'BitmapAnd',
  'BitmapOr',
]);
const JOINS = new Set(['Hash Join', 'Merge Join', 'Nested Loop']);

interface Walk {
  /** A Limit above, reached through streaming nodes only. */
  limited: boolean;
  /** The table and filter of the enclosing Bitmap Heap Scan. */
  heap?: string;
  heapFilter?: string;
  /** The condition of the join above whose side this is, when that side could be probed instead. */
  join?: string;
}

/** Whether a join of this type could drive the given side (0 outer, 1 inner) by probing an index with its key. */
function probeable(joinType: string | undefined, side: number): boolean {
  if (joinType === 'Inner') return true;
  if (joinType === 'Left' || joinType === 'Semi' || joinType === 'Anti') return side === 1;
  if (joinType?.startsWith('Right')) return side === 0;
  return false;
}

/**
 * Scans of the tables checked that no index bounds: Seq Scans, and plain, index-only or bitmap index scans without
 * an Index Cond (the whole index) that no Limit stops early.
 */
function offendersIn(node: PlanNode, walk: Walk = { limited: false }, out: Offender[] = []): Offender[] {
  const type = node['Node Type'];
  const table = node['Relation Name'] ?? walk.heap;
  if (table && TABLES.has(table)) {
    if (type === 'Seq Scan') out.push({ kind: type, table, filter: node.Filter, join: walk.join });
    const indexScan = ['Index Scan', 'Index Only Scan', 'Bitmap Index Scan'].includes(type);
    if (indexScan && !node['Index Cond'] && !(walk.limited && type !== 'Bitmap Index Scan')) {
      out.push({
        kind: `${type} without Index Cond (whole index)`,
        table,
        index: node['Index Name'],
        filter: node.Filter ?? walk.heapFilter,
        join: walk.join,
      });
    }
  }
  (node.Plans ?? []).forEach((child, side) => {
    const condition = node['Hash Cond'] ?? node['Merge Cond'] ?? node['Join Filter'];
    offendersIn(
      child,
      {
        // A nested loop reads its inner side again for every outer row.
        limited: (walk.limited || type === 'Limit') && STREAMING.has(type) && !(type === 'Nested Loop' && side > 0),
        heap: type === 'Bitmap Heap Scan' ? node['Relation Name'] : ['BitmapAnd', 'BitmapOr'].includes(type) ? walk.heap : undefined,
        heapFilter: type === 'Bitmap Heap Scan' ? node.Filter : ['BitmapAnd', 'BitmapOr'].includes(type) ? walk.heapFilter : undefined,
        join: JOINS.has(type) ? (probeable(node['Join Type'], side) ? condition : undefined) : THROUGH.has(type) ? walk.join : undefined,
      },
      out,
    );
  });
  return out;
}

function relationsIn(node: PlanNode, out = new Set<string>()): Set<string> {
  if (node['Relation Name']) out.add(node['Relation Name']);
  for (const child of node.Plans ?? []) relationsIn(child, out);
  return out;
}

/** Plans statements in one transaction that is rolled back (EXPLAIN without ANALYZE runs nothing anyway). */
export class PlanChecker {
  private constructor(
    private readonly runner: QueryRunner,
    /** The leading column of every index of the tables checked. */
    private readonly leading: Map<string, Set<string>>,
  ) {}

  static async open(dataSource: DataSource): Promise<PlanChecker> {
    const rows: { table: string; column: string }[] = await dataSource.query(
      `SELECT c.relname AS table, a.attname AS column FROM pg_index i
         JOIN pg_class c ON c.oid = i.indrelid JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE c.relname = ANY($1) AND c.relnamespace = 'public'::regnamespace`,
      [[...TABLES]],
    );
    const leading = new Map<string, Set<string>>();
    for (const { table, column } of rows) leading.set(table, (leading.get(table) ?? new Set()).add(column));
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    return new PlanChecker(runner, leading);
  }

  async close(): Promise<void> {
    await this.runner.rollbackTransaction().catch(() => undefined);
    await this.runner.release();
  }

  /** The plan of `query` with Seq Scans disabled (and `settings`), in a savepoint of the open transaction. */
  async explain(query: string, parameters: unknown[], settings: string[] = []): Promise<PlanNode> {
    await this.runner.query('SAVEPOINT explain');
    try {
      for (const setting of ['enable_seqscan = off', ...settings]) await this.runner.query(`SET LOCAL ${setting}`);
      const [row] = await this.runner.query(`EXPLAIN (FORMAT JSON) ${query}`, parameters);
      return row['QUERY PLAN'][0].Plan;
    } finally {
      await this.runner.query('ROLLBACK TO SAVEPOINT explain');
    }
  }

  /** Whether the statement reads one of the tables checked, and its scans of them that no index bounds. */
  async check(query: string, parameters: unknown[]): Promise<{ touches: boolean; offenders: Offender[] }> {
    const plan = await this.explain(query, parameters);
    const touches = [...relationsIn(plan)].some((relation) => TABLES.has(relation));
    const offenders = offendersIn(plan);
    if (offenders.every((offender) => offender.kind === 'Seq Scan')) return { touches, offenders };
    // A whole-index scan can merely be cheaper than a bounded one on a few dozen rows. With page reads free the
    // planner minimises the rows it touches, as it must at millions of rows. And at scale, where a condition
    // selects a sliver of the rows rather than most of a small population, an index leading with a column of the
    // scan's filter (a friend-graph frontier), or of the key of a join that could probe this side (the owners of
    // one app joined to their accounts), bounds the scan. A whole-index scan that survives both is an offender.
    const rowsOnly = offendersIn(await this.explain(query, parameters, ['seq_page_cost = 0', 'random_page_cost = 0']));
    const boundable = (offender: Offender) =>
      [offender.filter, offender.join].some((condition) =>
        (condition?.match(/[a-z_][a-z0-9_]*/g) ?? []).some((column) => this.leading.get(offender.table)?.has(column)),
      );
    return {
      touches,
      offenders: [
        ...offenders.filter((offender) => offender.kind === 'Seq Scan'),
        ...rowsOnly.filter((offender) => offender.kind !== 'Seq Scan' && !boundable(offender)),
      ],
    };
  }
}
