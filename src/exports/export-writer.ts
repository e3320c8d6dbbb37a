import type { Response } from 'express';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const MEDIA_TYPES: Record<ExportFormat, string> = { ndjson: 'application/x-ndjson', csv: 'text/csv' };

/** A CSV cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) starts with `'` (OWASP's CSV injection advice). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell: empty for null, JSON text for objects and arrays, quoted when it holds a quote, comma or line break. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = FORMULA_START.test(value) ? `'${value}` : value;
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Writes an export's rows to the response as they are produced: one `write` per batch (a chunk of NDJSON lines or CSV
 * records), and when the socket's buffer is full (`write` answered false) the producer waits for 'drain' before it
 * reads the next batch, so what is held in memory is a batch or two whatever the export's size. A client that goes
 * away ('close' before the end) sets `aborted`; producers check it between batches and stop reading.
 */
export class ExportWriter {
  private closed = false;
  private columns: readonly string[] | null;
  rows = 0;

  constructor(
    private readonly res: Response,
    readonly format: ExportFormat,
    /** CSV columns; null: the first row's keys. */
    columns: readonly string[] | null,
  ) {
    this.columns = columns;
    res.once('close', () => {
      this.closed = true;
    });
  }

  /** The client went away (or the response failed) before the export ended. */
  get aborted(): boolean {
    return this.closed && !this.res.writableFinished;
  }

  /** Sends the status and headers (once, before the first batch: a problem found earlier is still a problem document). */
  start(fileName: string): void {
    this.res.status(200);
    this.res.setHeader('Content-Type', `${MEDIA_TYPES[this.format]}; charset=utf-8`);
    this.res.setHeader('Content-Disposition', `attachment; filename="${fileName}.${this.format}"`);
    this.res.setHeader('Cache-Control', 'no-store');
    // Proxies that buffer (nginx) would hold the whole export: the point is that nobody does.
    this.res.setHeader('X-Accel-Buffering', 'no');
    if (this.format === 'csv' && this.columns) this.res.write(this.columns.map(csvCell).join(',') + '\r\n');
  }

  /** Writes one batch; resolves once the socket can take more (or at once when the client is gone). */
  async write(batch: readonly object[]): Promise<void> {
    if (!batch.length || this.closed) return;
    let chunk = '';
    if (this.format === 'ndjson') {
      for (const row of batch) chunk += JSON.stringify(row) + '\n';
    } else {
      if (!this.columns) {
        this.columns = Object.keys(batch[0]);
        chunk += this.columns.map(csvCell).join(',') + '\r\n';
      }
      const columns = this.columns;
      for (const row of batch) {
        const record = row as Record<string, unknown>;
        chunk += columns.map((column) => csvCell(record[column])).join(',') + '\r\n';
      }
    }
    this.rows += batch.length;
    if (!this.res.write(chunk)) await this.drained();
  }

  /** Writes text already in the format (NDJSON lines written from stored JSON texts), `rows` rows of it. */
  async writeText(chunk: string, rows: number): Promise<void> {
    if (!chunk || this.closed) return;
    this.rows += rows;
    if (!this.res.write(chunk)) await this.drained();
  }

  /** Ends the response, or (the client gone, or a failure after the headers) destroys it: never half a success. */
  end(error?: unknown): void {
    if (this.closed) return;
    if (error === undefined) this.res.end();
    else this.res.destroy(error instanceof Error ? error : new Error(String(error)));
  }

  /**
   * Whichever comes first: the buffer drained, or the client left (then 'drain' never comes). Two listeners and one
   * promise (not events.once with an AbortController each): what is allocated while the export waits is what the
   * young generation may promote.
   */
  private drained(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
}
