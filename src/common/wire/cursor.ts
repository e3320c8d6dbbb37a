import { unprocessable } from '../problem/problem.exception';

/** What a cursor is made of, as base64url text: the request schemas state it as the `cursor` pattern. */
export const CURSOR_PATTERN = '^[A-Za-z0-9_-]+$';
export const CURSOR_MAX_LENGTH = 200;

/**
 * What each position of a cursor's key holds, checked as strictly as a body field: the key goes into SQL as a
 * typed parameter, so a forged cursor must be a 422 here, never a PostgreSQL cast or range error.
 * - `timestamp`: a `toISOString()` time (what the service issues), within PostgreSQL's range
 * - `int32`: an integer column value (account ids, playtime)
 * - `int64`: a bigint id, as a decimal string (ids past 2^53 must not travel as JSON numbers)
 */
export type CursorPart = 'timestamp' | 'int32' | 'int64';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INT64_TEXT = /^-?(0|[1-9]\d{0,18})$/;

const CHECKS: Record<CursorPart, (value: unknown) => boolean> = {
  // Round-tripping rejects impossible dates (2024-02-30) that the pattern lets through.
  timestamp: (value) => typeof value === 'string' && ISO_TIME.test(value) && roundTrips(value),
  int32: (value) => Number.isInteger(value) && (value as number) >= -2147483648 && (value as number) <= 2147483647,
  int64: (value) => typeof value === 'string' && INT64_TEXT.test(value) && BigInt.asIntN(64, BigInt(value)) === BigInt(value),
};

function roundTrips(text: string): boolean {
  const time = Date.parse(text);
  return Number.isFinite(time) && new Date(time).toISOString() === text;
}

type PartType<P extends CursorPart> = P extends 'int32' ? number : string;
type KeyOf<S extends readonly CursorPart[]> = { -readonly [I in keyof S]: PartType<S[I]> };

/** Opaque paging cursors: the sort key of the last row served, as base64url JSON. */
export function encodeCursor(key: (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The key of a cursor this service issued, with every part of the kind `shape` says; anything else → 422 `body.cursor`. */
export function decodeCursor<const S extends readonly CursorPart[]>(cursor: string, shape: S): KeyOf<S> {
  let key: unknown = null;
  if (cursor.length <= CURSOR_MAX_LENGTH && new RegExp(CURSOR_PATTERN).test(cursor)) {
    try {
      key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      key = null;
    }
  }
  const valid = Array.isArray(key) && key.length === shape.length && key.every((value, i) => CHECKS[shape[i]](value));
  if (!valid)
    throw unprocessable('The cursor is not one this service issued.', [
      { location: 'body.cursor', message: 'invalid cursor', value: cursor },
    ]);
  return key as KeyOf<S>;
}
