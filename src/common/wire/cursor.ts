import { unprocessable } from '../problem/problem.exception';

/**
 * Opaque paging cursors: the sort key of the last row served, as base64url JSON. A cursor that does not
 * decode to the expected tuple is a 422 on `body.cursor`.
 */
export function encodeCursor(key: (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends (string | number)[]>(cursor: string, shape: ('string' | 'number')[]): T {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  const valid = Array.isArray(key) && key.length === shape.length && key.every((value, i) => typeof value === shape[i]);
  if (!valid)
    throw unprocessable('The cursor is not one this service issued.', [
      { location: 'body.cursor', message: 'invalid cursor', value: cursor },
    ]);
  return key as T;
}
