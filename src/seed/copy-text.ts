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
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return date.toISOString(); // throws RangeError, as toISOString does
  const day = Math.floor(ms / DAY_MS);
  let prefix = DAY_PREFIXES.get(day);
  if (prefix === undefined) {
    const iso = new Date(day * DAY_MS).toISOString();
    // The time of day is always the last 13 characters (`HH:MM:SS.mmmZ`), whatever form the year takes.
    DAY_PREFIXES.set(day, (prefix = iso.slice(0, iso.length - 13)));
  }
  const t = ms - day * DAY_MS;
  const seconds = Math.floor(t / 1000);
  return `${prefix}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[t % 1000]}Z`;
}

/** A JSON value for a jsonb column. */
export function copyJson(value: unknown): string {
  return value === null || value === undefined ? '\\N' : escape(JSON.stringify(value));
}

/** How much text CopyText gathers before encoding it. */
const FLUSH_CHARS = 64 * 1024;

/** Rows of one table, accumulated as COPY text and handed over as bytes. */
export class CopyText {
  // Rows are concatenated into a short string (V8 joins by reference, a rope) that is encoded to bytes every
  // FLUSH_CHARS: a chunk's whole text as one rope kept every row's string alive until take(), and the young
  // generation's collector copied them all again and again (a fifth of a generating thread's time went to it).
  private text = '';
  private readonly encoded: Uint8Array[] = [];
  private encodedBytes = 0;
  rows = 0;

  constructor(private readonly flushChars = FLUSH_CHARS) {}

  /** Appends a row of already rendered fields (copyValue / copyJson). */
  add(fields: string[]): void {
    this.addLine(fields.join('\t') + '\n');
  }

  /** Appends a row already rendered as one line (fields rendered by copyValue, tab-separated, ending in a newline). */
  addLine(line: string): void {
    this.text += line;
    this.rows++;
    if (this.text.length >= this.flushChars) this.encodeText();
  }

  /** The accumulated text as UTF-8 in a buffer of its own (transferable to another thread), and a fresh start. */
  take(): Uint8Array {
    this.encodeText();
    const parts = this.encoded.splice(0);
    const bytes = parts.length === 1 ? parts[0] : joined(parts, this.encodedBytes);
    this.encodedBytes = 0;
    this.rows = 0;
    return bytes;
  }

  private encodeText(): void {
    if (!this.text) return;
    const bytes = ENCODER.encode(this.text);
    this.encoded.push(bytes);
    this.encodedBytes += bytes.length;
    this.text = '';
  }
}

const ENCODER = new TextEncoder();

/** The parts in one new buffer (not Buffer.concat, whose small results share a pooled buffer: not transferable). */
function joined(parts: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
