/**
 * bench:plans' reading of a plan as PostgreSQL's `auto_explain` logs it in JSON (EXPLAIN (ANALYZE, BUFFERS, FORMAT
 * JSON)): a compact text rendering, and the scans of the population tables that no index bounds.
 */
export interface PlanNode {
  'Node Type': string;
  'Join Type'?: string;
  Strategy?: string;
  'Subplan Name'?: string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Actual Total Time'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  'Hash Cond'?: string;
  'Merge Cond'?: string;
  'Join Filter'?: string;
  Filter?: string;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

export interface LoggedPlan {
  database: string;
  ms: number;
  query: string;
  plan: PlanNode;
}

/** The auto_explain entries of a stretch of the server's log (an entry's message continues on tab-led lines). */
export function loggedPlans(text: string): LoggedPlan[] {
  const plans: LoggedPlan[] = [];
  const head = /^\S+ \S+ \S+ \[\d+\] [^@\s]+@(\S+) LOG: {2}duration: ([\d.]+) ms {2}plan:$/;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = head.exec(lines[i]);
    if (!match) continue;
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1].startsWith('\t')) body.push(lines[++i].slice(1));
    const entry = JSON.parse(body.join('\n')) as { 'Query Text': string; Plan: PlanNode };
    plans.push({ database: match[1], ms: Number(match[2]), query: entry['Query Text'], plan: entry.Plan });
  }
  return plans;
}

/** Index walks reading more rows than this without an index condition are reported (a Limit may stop one early). */
const WHOLE_INDEX_ROWS = 10_000;

const INDEX_SCANS = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);

function title(node: PlanNode): string {
  // As EXPLAIN's text writes it: "Nested Loop Left Join", "Hash Anti Join"; an inner join is the node's name alone.
  const join = node['Join Type'];
  const kind = join && join !== 'Inner' ? `${node['Node Type'].replace(/ Join$/, '')} ${join} Join` : node['Node Type'];
  const strategy = node.Strategy && node.Strategy !== 'Plain' ? ` ${node.Strategy}` : '';
  const backward = node['Scan Direction'] === 'Backward' ? ' Backward' : '';
  const index = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  const relation = node['Relation Name']
    ? ` on ${node['Relation Name']}${node.Alias && node.Alias !== node['Relation Name'] ? ` ${node.Alias}` : ''}`
    : '';
  const actual = `rows=${node['Actual Rows'] ?? '?'} loops=${node['Actual Loops'] ?? '?'} time=${node['Actual Total Time']?.toFixed(3) ?? '?'} ms`;
  const subplan = node['Subplan Name'] ? `${node['Subplan Name']}: ` : '';
  return `${subplan}${kind}${strategy}${backward}${index}${relation} (${actual})`;
}

/** The plan as indented lines: each node, its conditions and its buffers (hit and read from disk). */
export function renderPlan(node: PlanNode, depth = 0): string[] {
  const pad = '  '.repeat(depth);
  const lines = [`${pad}${depth ? '-> ' : ''}${title(node)}`];
  const detail = `${pad}${depth ? '   ' : ''}  `;
  for (const key of ['Index Cond', 'Recheck Cond', 'Hash Cond', 'Merge Cond', 'Join Filter', 'Filter'] as const) {
    const value = node[key];
    if (value) lines.push(`${detail}${key}: ${value.length > 200 ? `${value.slice(0, 200)}…` : value}`);
  }
  if (node['Rows Removed by Filter']) lines.push(`${detail}Rows Removed by Filter: ${node['Rows Removed by Filter']}`);
  const [hit, read] = [node['Shared Hit Blocks'] ?? 0, node['Shared Read Blocks'] ?? 0];
  if (hit || read) lines.push(`${detail}Buffers: shared hit=${hit}${read ? ` read=${read}` : ''}`);
  for (const child of node.Plans ?? []) lines.push(...renderPlan(child, depth + 1));
  return lines;
}

/**
 * Scans of `tables` that no index bounds: a Seq Scan of one, or an index walked without an index condition over more
 * than WHOLE_INDEX_ROWS rows (a whole-index read in order, as much a whole-table read).
 */
export function scansWithoutIndex(node: PlanNode, tables: Set<string>): string[] {
  const found: string[] = [];
  const table = node['Relation Name'];
  const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
  if (table && tables.has(table)) {
    if (node['Node Type'] === 'Seq Scan') found.push(`Seq Scan on ${table} (${rows} rows)`);
    else if (INDEX_SCANS.has(node['Node Type']) && !node['Index Cond'] && rows > WHOLE_INDEX_ROWS)
      found.push(`${node['Node Type']} of ${node['Index Name']} on ${table} without an index condition (${rows} rows)`);
  }
  for (const child of node.Plans ?? []) found.push(...scansWithoutIndex(child, tables));
  return found;
}
