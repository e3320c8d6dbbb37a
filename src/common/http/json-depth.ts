/**
 * No request schema nests more than a few levels (`body.exclude[0].id.accountId` is the deepest), so a body
 * nested deeper than this cannot be valid; refusing it before JSON.parse keeps a 256 kB `[[[[…]]]]` from
 * costing tens of milliseconds to parse and from overflowing the stack of anything that walks it recursively.
 */
export const MAX_JSON_DEPTH = 32;
/**
 * No request array allows more than 500 items and no request object has more than a dozen fields, so a
 * container larger than these is refused from the raw text too: JSON.parse then never builds an 80,000-element
 * array or a 20,000-key object, and the refusal costs the bytes up to the first excess element, not the body.
 */
export const MAX_JSON_ITEMS = 1000;
export const MAX_JSON_KEYS = 100;

/** Where the raw text breaks a structural limit, and how. */
export interface JsonLimitBreach {
  location: string;
  message: string;
}

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * Scans raw JSON text, without parsing it, for nesting deeper than MAX_JSON_DEPTH and for containers larger
 * than MAX_JSON_ITEMS / MAX_JSON_KEYS, and returns the first breach with its location
 * (`body.filters.appIds[0][0]…`), or null. One pass that allocates nothing per element (string contents are
 * skipped with the native indexOf) and stops at the first breach; malformed text is left for the parser.
 */
export function jsonLimitBreach(text: Buffer): JsonLimitBreach | null {
  // Per open container: array or object, the current element index, the byte range of the current key.
  const isArray: boolean[] = [];
  const index: number[] = [];
  const keyStart: number[] = [];
  const keyEnd: number[] = [];
  const expectingKey: boolean[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === QUOTE) {
      const end = closingQuote(text, i);
      if (end < 0) return null;
      const top = depth - 1;
      if (top >= 0 && !isArray[top] && expectingKey[top]) {
        keyStart[top] = i + 1;
        keyEnd[top] = end;
        expectingKey[top] = false;
      }
      i = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth >= MAX_JSON_DEPTH) {
        return {
          location: locationOf(text, depth, isArray, index, keyStart, keyEnd),
          message: `nests deeper than ${MAX_JSON_DEPTH} levels`,
        };
      }
      isArray[depth] = byte === OPEN_ARRAY;
      index[depth] = 0;
      expectingKey[depth] = byte === OPEN_OBJECT;
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (byte === COMMA && depth > 0) {
      // `index` counts the elements of an array and the fields of an object alike.
      const top = depth - 1;
      if (++index[top] >= (isArray[top] ? MAX_JSON_ITEMS : MAX_JSON_KEYS)) {
        const message = isArray[top] ? `has more than ${MAX_JSON_ITEMS} items` : `has more than ${MAX_JSON_KEYS} fields`;
        return { location: locationOf(text, top, isArray, index, keyStart, keyEnd), message };
      }
      if (!isArray[top]) expectingKey[top] = true;
    }
  }
  return null;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: Buffer, open: number): number {
  let end = text.indexOf(QUOTE, open + 1);
  while (end >= 0) {
    let backslashes = 0;
    while (text[end - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf(QUOTE, end + 1);
  }
  return -1;
}

function locationOf(text: Buffer, depth: number, isArray: boolean[], index: number[], keyStart: number[], keyEnd: number[]): string {
  let location = 'body';
  for (let level = 0; level < depth && location.length <= 120; level++) {
    location += isArray[level] ? `[${index[level]}]` : keyStep(text, keyStart[level], keyEnd[level]);
  }
  return location.length <= 120 ? location : `${location.slice(0, 120)}…`;
}

/** `.name` for a plain key, `["…"]` for anything else (shortened). */
function keyStep(text: Buffer, start: number, end: number): string {
  let key: string;
  try {
    key = JSON.parse(`"${text.subarray(start, Math.min(end, start + 64)).toString('utf8')}"`) as string;
  } catch {
    key = text.subarray(start, Math.min(end, start + 64)).toString('utf8');
  }
  if (end - start > 64) key += '…';
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
