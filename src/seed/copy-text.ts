/**
 * PostgreSQL COPY text format: one line per row, tab-separated, `\N` for NULL, and backslash, tab, newline and
 * carriage return escaped inside values. Values are rendered here once, in the generating thread, so the thread
 * that talks to PostgreSQL only forwards bytes.
 */

export type CopyValue = string | number | boolean | Date | null | undefined;

const SPECIAL = /[\\\t\n\r]/;

function escape(text: string): string {
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

export function copyValue(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return escape(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return isoString(value);
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** `YYYY-MM-DDT` by day number: a seed renders tens of millions of instants over a few thousand days (its whole size). */
const DAY_PREFIXES = new Map<number, string>();

/**
 * `date.toISOString()`, ~5× faster (V8 formats it in C++, a runtime call and a printf each time). It is the seed's
 * most frequent rendering: a completion time per badge row, a last-played time per app row, the run records' steps.
 * The day's part is looked up, the time of day put together from tables of digits.
 */
export function isoString(date: Date): string {
  const ms = instantOf(date);
  const day = Math.floor(ms / DAY_MS);
  const t = ms - day * DAY_MS;
  const seconds = Math.floor(t / 1000);
  return `${dayPrefix(day)}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[t % 1000]}Z`;
}

/** The date's time value; an invalid date throws the RangeError toISOString throws. */
function instantOf(date: Date): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) date.toISOString();
  return ms;
}

/** `YYYY-MM-DDT` of a day (days since the epoch). */
function dayPrefix(day: number): string {
  let prefix = DAY_PREFIXES.get(day);
  if (prefix === undefined) {
    const iso = new Date(day * DAY_MS).toISOString();
    // The time of day is always the last 13 characters (`HH:MM:SS.mmmZ`), whatever form the year takes.
    DAY_PREFIXES.set(day, (prefix = iso.slice(0, iso.length - 13)));
  }
  return prefix;
}

/** A JSON value for a jsonb column. */
export function copyJson(value: unknown): string {
  return value === null || value === undefined ? '\\N' : escape(JSON.stringify(value));
}

/** A table's bytes start at this size and double as they fill. */
const INITIAL_BYTES = 64 * 1024;
const TAB = 0x09;
const NEWLINE = 0x0a;
const ZERO = 0x30;
const MINUS = 0x2d;
const BACKSLASH = 0x5c;
const CAPITAL_N = 0x4e;
const COLON = 0x3a;
const DOT = 0x2e;
const CAPITAL_Z = 0x5a;

/**
 * Rows of one table as COPY text, written straight into bytes and handed over as one buffer.
 *
 * Rows of strings go in whole (`add`, `addLine`; UTF-8 encoded into the buffer). The hot tables' rows (a badge, an
 * app, a friend: ~70 an account, integers and instants only) go in field by field (`int`, `instant`, then `end`),
 * with digits written as bytes: rendering them as strings, joining those into lines and encoding the lines again
 * was a sixth of a generating thread's time, and its strings most of what the young generation's collector copied.
 */
export class CopyText {
  private bytes: Uint8Array;
  private length = 0;
  /** No field of the current row written yet (the next field needs no tab before it). */
  private rowStart = true;
  rows = 0;

  constructor(initialBytes = INITIAL_BYTES) {
    this.bytes = new Uint8Array(initialBytes);
  }

  /** Appends a row of already rendered fields (copyValue / copyJson). */
  add(fields: string[]): void {
    this.addLine(fields.join('\t') + '\n');
  }

  /** Appends a row already rendered as one line (fields rendered by copyValue, tab-separated, ending in a newline). */
  addLine(line: string): void {
    this.reserve(line.length * 3); // the most UTF-8 bytes a UTF-16 code unit takes
    this.length += ENCODER.encodeInto(line, this.bytes.subarray(this.length)).written;
    this.rows++;
  }

  /** Appends an integer field to the current row (as copyValue renders it). */
  int(value: number): this {
    this.reserve(24);
    this.separate();
    if (!Number.isSafeInteger(value)) return this.ascii(String(value));
    let n = value;
    if (n < 0) {
      this.bytes[this.length++] = MINUS;
      n = -n;
    }
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let at = (this.length += digits);
    do {
      this.bytes[--at] = ZERO + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
    return this;
  }

  /** Appends an instant field (or NULL) to the current row (as copyValue renders it, without the string). */
  instant(value: Date | null): this {
    this.reserve(40); // the longest instant (an extended year) and its tab: the buffer is not replaced below
    this.separate();
    if (value === null) {
      this.bytes[this.length++] = BACKSLASH;
      this.bytes[this.length++] = CAPITAL_N;
      return this;
    }
    const ms = instantOf(value);
    const day = Math.floor(ms / DAY_MS);
    this.ascii(dayPrefix(day));
    // The time of day as isoString renders it, digit by digit.
    const t = ms - day * DAY_MS;
    const seconds = Math.floor(t / 1000);
    const bytes = this.bytes;
    let at = this.length;
    at = digits(bytes, at, Math.floor(seconds / 3600), 2);
    bytes[at++] = COLON;
    at = digits(bytes, at, Math.floor(seconds / 60) % 60, 2);
    bytes[at++] = COLON;
    at = digits(bytes, at, seconds % 60, 2);
    bytes[at++] = DOT;
    at = digits(bytes, at, t % 1000, 3);
    bytes[at++] = CAPITAL_Z;
    this.length = at;
    return this;
  }

  /** Ends the current row. */
  end(): void {
    this.reserve(1);
    this.bytes[this.length++] = NEWLINE;
    this.rowStart = true;
    this.rows++;
  }

  /** The rows so far as UTF-8 in a buffer of its own (transferable to another thread), and a fresh start. */
  take(): Uint8Array {
    const taken = this.bytes.slice(0, this.length);
    this.length = 0;
    this.rows = 0;
    return taken;
  }

  private separate(): void {
    if (this.rowStart) this.rowStart = false;
    else this.bytes[this.length++] = TAB;
  }

  /** Text of ASCII characters only (digits, an ISO instant), one byte each. */
  private ascii(text: string): this {
    this.reserve(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
    return this;
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

const ENCODER = new TextEncoder();

/** Writes `value` as exactly `width` decimal digits (zero-padded) at `at`; returns the index after them. */
function digits(bytes: Uint8Array, at: number, value: number, width: number): number {
  for (let i = at + width - 1; i >= at; i--) {
    bytes[i] = ZERO + (value % 10);
    value = Math.floor(value / 10);
  }
  return at + width;
}
