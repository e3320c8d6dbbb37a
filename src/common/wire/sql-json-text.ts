/**
 * SQL building blocks for JSON text written by PostgreSQL and sent as it is (RawJson, raw-json.ts): each gives the
 * bytes JSON.stringify would write for the same value, so a response built this way equals one built from objects.
 */

type SqlJsonFields = readonly (readonly [key: string, valueText: string])[];

/** A JSON object's text from `[key, SQL of the value's JSON text]` pairs, keys in the order given. */
export function sqlJsonObject(fields: SqlJsonFields): string {
  return `'{' || ${sqlJsonMembers(fields)} || '}'`;
}

/** The members of such an object without its braces (`"a":1,"b":2`), for a text that goes on; `',' ` first if `leadingComma`. */
export function sqlJsonMembers(fields: SqlJsonFields, leadingComma = false): string {
  return fields.map(([key, text], i) => `'${i || leadingComma ? ',' : ''}"${key}":' || ${text}`).join(' || ');
}

/** A text value as a JSON string: PostgreSQL escapes strings exactly as JSON.stringify does (and text cannot hold NUL). */
export const sqlJsonString = (sql: string) => `to_json(${sql})::text`;

/** An integer (int, bigint) or boolean value: its text is its JSON. */
export const sqlJsonScalar = (sql: string) => `(${sql})::text`;

/**
 * A timestamp as toISOString writes it (UTC, milliseconds truncated as the driver truncates microseconds), quoted;
 * `null` when the value is null.
 */
export const sqlJsonIsoTime = (sql: string) =>
  `COALESCE('"' || to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
