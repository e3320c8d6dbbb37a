/** Where a batch of account updates stands. */
export interface RefreshTally {
  /** Accounts being waited for. */
  total: number;
  completed: number;
  failed: number;
  /** Updates the worker is running now. */
  running: number;
  /** Share of the work done, 0..1, counting the running updates' progress. */
  fraction: number;
}

/** The stream progress is drawn on: stderr, so stdout keeps only the command's result. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR_MIN_WIDTH = 10;
const BAR_MAX_WIDTH = 40;
/** A terminal is redrawn at most this often; a log gets a line per tenth of the work, or this heartbeat. */
const REDRAW_MS = 100;
const LOG_HEARTBEAT_MS = 15_000;

export function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function counts(tally: RefreshTally): string {
  // Padded to the total's width, so the line (and the bar beside it) keeps its length as the counts grow.
  const pad = (n: number) => String(n).padStart(String(tally.total).length);
  return [
    `${pad(tally.completed + tally.failed)}/${tally.total} done`,
    `${pad(tally.running)} running`,
    `${pad(tally.failed)} failed`,
  ].join(' · ');
}

/** One terminal line: label, bar, percentage, counts, elapsed time; the bar shrinks to fit `columns`. */
export function renderBar(label: string, tally: RefreshTally, elapsedMs: number, columns: number): string {
  const percent = `${String(Math.floor(tally.fraction * 100)).padStart(3)}%`;
  const rest = `${percent} ${counts(tally)} · ${elapsed(elapsedMs)}`;
  const room = columns - label.length - rest.length - 4;
  const width = Math.min(BAR_MAX_WIDTH, room);
  if (width < BAR_MIN_WIDTH) return `${label} ${rest}`.slice(0, Math.max(columns - 1, 0));
  const filled = Math.round(Math.min(Math.max(tally.fraction, 0), 1) * width);
  return `${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${rest}`;
}

/** One log line, for a stream that is not a terminal (CI, a file, a pipe). */
export function renderLine(label: string, tally: RefreshTally, elapsedMs: number): string {
  return `${label}: ${Math.floor(tally.fraction * 100)}% ${counts(tally)} · ${elapsed(elapsedMs)}`;
}

/**
 * Shows a batch's progress: a bar redrawn in place on a terminal, plain lines otherwise (a line per tenth of the
 * work and a heartbeat, so a log is neither flooded nor silent).
 */
export class ProgressDisplay {
  private readonly startedAt: number;
  private lastDrawAt = -Infinity;
  private lastTenth = -1;
  private lastLength = 0;

  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  update(tally: RefreshTally): void {
    const at = this.now();
    if (this.stream.isTTY) {
      if (at - this.lastDrawAt < REDRAW_MS) return;
      this.draw(tally, at);
      return;
    }
    const tenth = Math.floor(tally.fraction * 10);
    if (tenth > this.lastTenth || at - this.lastDrawAt >= LOG_HEARTBEAT_MS) {
      this.lastTenth = tenth;
      this.lastDrawAt = at;
      this.writeLine(tally, at);
    }
  }

  /** Draws the final state (always) and ends the line. */
  finish(tally: RefreshTally): void {
    const at = this.now();
    if (this.stream.isTTY) {
      this.draw(tally, at);
      this.stream.write('\n');
    } else if (this.lastTenth < 10) {
      this.writeLine(tally, at); // unless the 100% line is already out
    }
  }

  /** Prints a message on its own line without breaking the bar (it is redrawn on the next update). */
  note(message: string): void {
    if (this.stream.isTTY && this.lastLength) this.stream.write(`\r${' '.repeat(this.lastLength)}\r`);
    this.stream.write(`${message}\n`);
    this.lastDrawAt = -Infinity;
  }

  private writeLine(tally: RefreshTally, at: number): void {
    this.stream.write(`${renderLine(this.label, tally, at - this.startedAt)}\n`);
  }

  private draw(tally: RefreshTally, at: number): void {
    // A pseudo-terminal without a size (script, some CI runners) reports 0 columns.
    const line = renderBar(this.label, tally, at - this.startedAt, this.stream.columns || 80);
    // Pad over a longer previous line instead of relying on a terminal's erase sequence.
    this.stream.write(`\r${line.padEnd(this.lastLength)}`);
    this.lastLength = line.length;
    this.lastDrawAt = at;
  }
}

/** [1,2,3,7,9,10] → "1..3, 7, 9..10": a range of missing ids stays one short line. */
export function compactRanges(ids: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    parts.push(i === j ? String(ids[i]) : `${ids[i]}..${ids[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
