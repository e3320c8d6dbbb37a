import { decodeStrictBase64 } from './base64';
import { clipValue } from '../problem/clip-value';
import type { ErrorDetail } from '../problem/problem.exception';
import { jsonLimitBreach } from './json-depth';
import { RequestShapes, ShapeSchema } from './request-shape';

/** Strings at least this long travel between threads as transferred bytes, not as a structured-clone copy. */
const BIG_STRING = 64 * 1024;

/** A big string taken out of a body for the trip between threads: where it goes, and its bytes. */
export interface DetachedString {
  path: (string | number)[];
  bytes: ArrayBuffer;
  encoding: 'latin1' | 'utf16le';
}

/** A base64 field decoded on the thread: where it was, its bytes (null: not strict base64) and its claimed size. */
export interface DecodedField {
  path: string;
  bytes: ArrayBuffer | null;
  claimedBytes: number;
}

/** Where a body's base64 fields are: each a path of keys, `*` for every element of an array. */
export type Base64Paths = readonly (readonly string[])[];

/**
 * What examining a raw JSON body found: a structural breach (as body-parser's `verify` reports it), text that is
 * not JSON, a body that breaks its schema (the problems, values already clipped, and whether it offered an
 * `access_token` field, which the credential guard refuses), or a body of the right shape (its big strings detached).
 */
export type Examined =
  | { kind: 'breach'; location: string; message: string }
  | { kind: 'syntax' }
  | { kind: 'problems'; problems: ErrorDetail[]; offersToken: boolean }
  | { kind: 'body'; body: unknown; strings: DetachedString[]; decoded: DecodedField[] };

/**
 * All the work a large body costs, in one function that runs on a worker thread (json-body-worker.ts): the
 * structure check of the raw bytes, the UTF-8 decoding, JSON.parse, and the schema check (RequestShapes) of the
 * operation's request body, then the strict decoding of its base64 fields (`base64`). The main thread only reads
 * the bytes and hands them over, and gets back either a short answer or a body whose base64 fields come back as
 * their decoded bytes and whose other big strings come back as transferred buffers.
 */
export function examineJsonBody(bytes: Uint8Array, schema: string, shapes: RequestShapes, base64: Base64Paths = []): Examined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const breach = jsonLimitBreach(buffer);
  if (breach) return { kind: 'breach', ...breach };
  let body: unknown;
  try {
    // body-parser's json(): an empty body is `{}`, a byte-order mark is dropped.
    const text = buffer.toString('utf8');
    body = text.length === 0 ? {} : JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { kind: 'syntax' };
  }
  if (body && typeof body === 'object' && !Array.isArray(body) && '$schema' in body) delete (body as Record<string, unknown>).$schema;
  const problems = shapes.check(schema, body, 'body');
  if (problems.length) {
    const offersToken = Boolean(body && typeof body === 'object' && !Array.isArray(body) && 'access_token' in body);
    return { kind: 'problems', problems: problems.map((problem) => ({ ...problem, value: clipValue(problem.value) })), offersToken };
  }
  const decoded: DecodedField[] = [];
  for (const path of base64) decodeFields(body, path, [], decoded);
  const strings: DetachedString[] = [];
  detachStrings(body, [], strings);
  return { kind: 'body', body, strings, decoded };
}

/** Decodes the strings at `path` (below `at`), leaving '' in their place: the bytes travel beside the body. */
function decodeFields(value: unknown, path: readonly string[], at: (string | number)[], out: DecodedField[]): void {
  if (!value || typeof value !== 'object') return;
  const [step, ...rest] = path;
  const record = value as Record<string, unknown>;
  const keys = step === '*' ? (Array.isArray(value) ? value.map((_item, index) => index) : []) : Object.hasOwn(record, step) ? [step] : [];
  for (const key of keys) {
    const item = record[key];
    if (rest.length) {
      decodeFields(item, rest, [...at, key], out);
    } else if (typeof item === 'string') {
      const { bytes, claimedBytes } = decodeStrictBase64(item);
      out.push({ path: [...at, key].join('.'), bytes: bytes && ownArrayBuffer(bytes), claimedBytes });
      record[key] = '';
    }
  }
}

/** The bytes as an ArrayBuffer of their own (a small Buffer views Node's shared pool), fit for a transfer. */
function ownArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

/** Replaces every big string of a (schema-checked, so small-structured) value by '' and lists its bytes. */
function detachStrings(value: unknown, path: (string | number)[], out: DetachedString[]): void {
  if (!value || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (typeof item === 'string' && item.length >= BIG_STRING) {
      // ASCII (every base64 image) travels as one byte per character; anything else as UTF-16.
      const encoding = Buffer.byteLength(item, 'utf8') === item.length ? 'latin1' : 'utf16le';
      out.push({ path: at, bytes: ownArrayBuffer(Buffer.from(item, encoding)), encoding });
      record[key] = '';
    } else {
      detachStrings(item, at, out);
    }
  }
}

/**
 * Puts detached strings back (on the main thread): one copy per string, ~10 ms for a 5 MiB image, so the loop is
 * given back between strings.
 */
export async function attachStrings(body: unknown, strings: DetachedString[]): Promise<void> {
  for (const { path, bytes, encoding } of strings) {
    await new Promise((resolve) => setImmediate(resolve));
    let at = body as Record<string | number, unknown>;
    for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
    at[path[path.length - 1]] = Buffer.from(bytes).toString(encoding);
  }
}

export type { ShapeSchema };
