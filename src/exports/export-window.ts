import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '../common/redis/redis.module';
import { BoardScope, RankedEntry } from '../ranks/rank-reader.service';
import { accountOfMemberValue } from '../ranks/rank-scopes';

/**
 * RankReader.window's ZREVRANGE … WITHSCORES, answered as ONE text: the members and scores joined by commas.
 *
 * Why (issue 62, the export's memory): an array reply of 2,000 strings per batch, read through ioredis, was promoted to
 * the old generation whole (measured with --trace-gc-nvp and the sampling heap profiler: ~73 bytes per row, about half
 * of what a whole-board export promoted; replies of the same size read from a bare socket with the same parser were
 * not). Promoted garbage stays until V8's next full collection, which comes late in a process holding a ~400 MB
 * heap, so it is what raised the RSS. One string per batch (~20 bytes per row, parsed digit by digit below without
 * a string per member) leaves next to nothing to promote.
 */
const PACKED_WINDOW_LUA = `return table.concat(redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES'), ',')`;

type PackedWindowScript = (key: string, start: number, stop: number) => Promise<string>;

/**
 * A batch of a board's rows as two columns allocated once per export and refilled batch after batch. A batch lives
 * across many young-generation collections (its chunks' reads and writes), so whatever it allocated per row was
 * promoted: its 1,000 `RankedEntry` objects were ~65 bytes a row of the old generation's growth. Entry objects are
 * made per chunk (`entries`), and die with it.
 */
export class ExportBatch {
  readonly accountIds: Float64Array;
  readonly scores: Float64Array;
  /** Rows held (≤ capacity). */
  length = 0;
  /** The first row's rank; 0: unranked rows (the zero tail), each of rank 0. */
  firstRank = 0;

  constructor(readonly capacity: number) {
    this.accountIds = new Float64Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  /** Holds a zero tail's accounts (score 0, unranked). */
  fillUnranked(accountIds: readonly number[]): void {
    this.length = Math.min(accountIds.length, this.capacity);
    this.firstRank = 0;
    for (let i = 0; i < this.length; i++) {
      this.accountIds[i] = accountIds[i];
      this.scores[i] = 0;
    }
  }

  /** Rows `from`…`to` (exclusive) as entries. */
  entries(from: number, to: number): RankedEntry[] {
    const entries: RankedEntry[] = [];
    for (let i = from; i < Math.min(to, this.length); i++)
      entries.push({ accountId: this.accountIds[i], score: this.scores[i], rank: this.firstRank ? this.firstRank + i : 0 });
    return entries;
  }

  /** The last row's account id (the zero tail's keyset). */
  get lastAccountId(): number {
    return this.accountIds[this.length - 1];
  }
}

@Injectable()
export class ExportWindowReader {
  private readonly script: PackedWindowScript;

  constructor(@Inject(REDIS) redis: Redis) {
    // defineCommand runs the script by EVALSHA, loading it once per connection.
    redis.defineCommand('badgeStatsPackedWindow', { numberOfKeys: 1, lua: PACKED_WINDOW_LUA });
    const script = (redis as unknown as Record<string, PackedWindowScript>).badgeStatsPackedWindow;
    this.script = script.bind(redis) as PackedWindowScript;
  }

  /** Fills `batch` with the scored accounts at positions `start`…`end` (1-based, inclusive, within `board.scored`). */
  async window(board: BoardScope, start: number, end: number, batch: ExportBatch): Promise<void> {
    readPacked(await this.script(board.key, start - 1, end - 1), start, batch);
  }
}

/** Fills `batch` from a packed window ("member,score,…"), the first row at rank `start`. */
export function readPacked(text: string, start: number, batch: ExportBatch): void {
  batch.length = 0;
  batch.firstRank = start;
  let member = -1;
  let from = 0;
  let value = 0;
  // Scores are integers on every board; anything else in a token (a fraction, an exponent) is read by Number().
  let plain = true;
  for (let i = 0; i <= text.length && batch.length < batch.capacity; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 44;
    if (code !== 44) {
      if (code >= 48 && code <= 57) value = value * 10 + (code - 48);
      else plain = false;
      continue;
    }
    if (i === from) break; // an empty window ('')
    const number = plain ? value : Number(text.slice(from, i));
    if (member < 0) member = number;
    else {
      batch.accountIds[batch.length] = accountOfMemberValue(member);
      batch.scores[batch.length] = number;
      batch.length++;
      member = -1;
    }
    from = i + 1;
    value = 0;
    plain = true;
  }
}
