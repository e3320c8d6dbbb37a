/**
 * # Statements prepared once per connection
 *
 * node-postgres sends an unnamed statement by default, which PostgreSQL parses, analyses and plans again on every
 * execution. On the request path that was most of PostgreSQL's CPU (a profile of `account.getInfo` at 16 in flight:
 * the parser, the planner's tree copies and relation-size look-ups), for statements that are the same text every
 * time. This pool client names each single read or write statement after a hash of its text, so a connection parses
 * it once and PostgreSQL keeps its plan (a custom plan for the first five executions, then the generic one when that
 * is no worse: PostgreSQL's own `plan_cache_mode = auto`).
 *
 * Passed to pg-pool as its `Client` (the documented pool option, see data-source-options.ts), so TypeORM, its
 * logging and the query-plan test see the same calls as before. Left unnamed: statements with a `;` inside (several
 * statements in one text need the simple protocol), anything but SELECT / WITH / INSERT / UPDATE / DELETE (DDL in
 * migrations, transaction control, DECLARE), texts over 16 kB, and any new text once a connection holds
 * MAX_PER_CONNECTION (a bound on the server memory of texts built with a varying number of placeholders).
 *
 * One caveat a prepared statement brings: a `SELECT *` whose table gains a column while the process runs fails once
 * with "cached plan must not change result type". The code names its columns; migrations run before the processes
 * that use them start.
 */
import { createHash } from 'node:crypto';
import { Client } from 'pg';

const PREPARABLE = /^\s*(select|with|insert|update|delete)\b/i;
const MAX_TEXT_LENGTH = 16_384;
export const MAX_PER_CONNECTION = 256;
/** Names by text, shared by the process's connections (the texts come from a bounded set of code paths). */
const NAME_CACHE_LIMIT = 4_096;
const names = new Map<string, string | null>();

/** The statement name for a text, or null when it is sent unnamed. */
export function statementName(text: string): string | null {
  const known = names.get(text);
  if (known !== undefined) return known;
  const trimmed = text.trimEnd().replace(/;$/, '');
  const name =
    text.length <= MAX_TEXT_LENGTH && PREPARABLE.test(text) && !trimmed.includes(';')
      ? `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`
      : null;
  if (names.size < NAME_CACHE_LIMIT) names.set(text, name);
  return name;
}

const baseQuery = Client.prototype.query as (this: Client, ...args: unknown[]) => unknown;

export class PreparingClient extends Client {
  private readonly preparedHere = new Set<string>();

  // pg's query() is overloaded (text, config object or submittable; promise or callback): only (text, values?,
  // callback?) is rewritten, everything else passes through untouched.
  override query = ((...args: unknown[]) => {
    const [text, values, callback] = args;
    if (typeof text === 'string' && (values === undefined || Array.isArray(values))) {
      const name = statementName(text);
      if (name && (this.preparedHere.has(name) || this.preparedHere.size < MAX_PER_CONNECTION)) {
        this.preparedHere.add(name);
        const config = { name, text, values: values ?? [] };
        return callback === undefined ? baseQuery.call(this, config) : baseQuery.call(this, config, callback);
      }
    }
    return baseQuery.apply(this, args);
  }) as Client['query'];
}
