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
  return value.toISOString();
}

/** A JSON value for a jsonb column. */
export function copyJson(value: unknown): string {
  return value === null || value === undefined ? '\\N' : escape(JSON.stringify(value));
}

/** Rows of one table, accumulated as COPY text and handed over as bytes. */
export class CopyText {
  // One growing string: V8 concatenates by reference (a rope) and flattens once in take(), cheaper than an array
  // of parts joined at the end.
  private text = '';
  rows = 0;

  /** Appends a row of already rendered fields (copyValue / copyJson). */
  add(fields: string[]): void {
    this.text += fields.join('\t') + '\n';
    this.rows++;
  }

  /** Appends a row already rendered as one line (fields rendered by copyValue, tab-separated, ending in a newline). */
  addLine(line: string): void {
    this.text += line;
    this.rows++;
  }

  /** The accumulated text as UTF-8 in a buffer of its own (transferable to another thread), and a fresh start. */
  take(): Uint8Array {
    const bytes = ENCODER.encode(this.text);
    this.text = '';
    this.rows = 0;
    return bytes;
  }
}

const ENCODER = new TextEncoder();
