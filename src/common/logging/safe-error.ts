/**
 * Log fields for an error that carry no client input. PostgreSQL quotes the offending value in its messages
 * (`invalid input syntax for type integer: "<input>"`), and TypeORM's QueryFailedError keeps the query's
 * parameters: a log line gets the SQLSTATE, the table/constraint/column names and the message with every
 * quoted literal masked — never parameters or `detail` (which repeats the row's values).
 */
interface DatabaseErrorLike {
  message?: string;
  stack?: string;
  code?: unknown;
  table?: unknown;
  constraint?: unknown;
  column?: unknown;
  severity?: unknown;
  query?: unknown;
  driverError?: DatabaseErrorLike;
}

/** Masks quoted literals ('…', "…") and the `Key (col)=(value)` form pg uses in messages. */
export function maskValues(text: string): string {
  return text
    .replace(/\(([^()]*)\)=\([^\n]*?\)( already exists| is not present)?/g, '($1)=(***)$2')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"***"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'***'");
}

/**
 * One-line SQL, long statements cut: enough to find the query in the code. Values travel as $n parameters;
 * a literal written into the text ('…') is masked all the same. ("…" are identifiers in SQL and stay.)
 */
export function compactSql(sql: string, max = 300): string {
  const line = sql
    .replace(/'(?:[^']|'')*'/g, "'***'")
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export function isDatabaseError(error: unknown): boolean {
  const e = error as DatabaseErrorLike | null;
  return Boolean(
    e && typeof e === 'object' && (e.driverError || e.severity || (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))),
  );
}

export function safeErrorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  if (!isDatabaseError(error)) return { error: error.message, stack: error.stack };
  const e = error as DatabaseErrorLike;
  const pg = e.driverError ?? e;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    error: maskValues(error.message),
    code: text(pg.code),
    table: text(pg.table),
    constraint: text(pg.constraint),
    column: text(pg.column),
    query: typeof e.query === 'string' ? compactSql(e.query) : undefined,
    stack: error.stack ? maskValues(error.stack) : undefined,
  };
}
