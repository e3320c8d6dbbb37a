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

@Injectable()
export class ExportWindowReader {
  private readonly script: PackedWindowScript;

  constructor(@Inject(REDIS) redis: Redis) {
    // defineCommand runs the script by EVALSHA, loading it once per connection.
    redis.defineCommand('badgeStatsPackedWindow', { numberOfKeys: 1, lua: PACKED_WINDOW_LUA });
    const script = (redis as unknown as Record<string, PackedWindowScript>).badgeStatsPackedWindow;
    this.script = script.bind(redis) as PackedWindowScript;
  }

  /** The scored accounts at positions `start`…`end` (1-based, inclusive, within `board.scored`), with their ranks. */
  async window(board: BoardScope, start: number, end: number): Promise<RankedEntry[]> {
    return entriesOfPacked(await this.script(board.key, start - 1, end - 1), start);
  }
}

/** The entries of a packed window ("member,score,…"), the first at rank `start`. */
export function entriesOfPacked(text: string, start: number): RankedEntry[] {
  const entries: RankedEntry[] = [];
  let member = -1;
  let from = 0;
  let value = 0;
  // Scores are integers on every board; anything else in a token (a fraction, an exponent) is read by Number().
  let plain = true;
  for (let i = 0; i <= text.length; i++) {
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
      entries.push({ accountId: accountOfMemberValue(member), score: number, rank: start + entries.length });
      member = -1;
    }
    from = i + 1;
    value = 0;
    plain = true;
  }
  return entries;
}
