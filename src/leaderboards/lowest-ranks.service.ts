import { Injectable } from '@nestjs/common';
import { xpForLevel } from '../platform/levels';
import { RankReader } from '../ranks/rank-reader.service';
import { APP_THRESHOLDS } from './bucket-leaders.service';
import { LowestRanksBoard } from './dto/lowest-ranks.dto';

/** Levels per milestone of the `xp` board's answer. */
export const LEVEL_STEP = 10;
/** The most milestones one answer holds (level 10 000 on the `xp` board). */
const MAX_MILESTONES = 1000;

/**
 * `leaderboard.getLowestRanks`: how far down the global board each milestone reaches. Keys are milestones —
 * levels in steps of ten on `xp`, the game-collector thresholds on `apps` — and each value is the lowest
 * (largest) rank still held by an account that reached the milestone, i.e. the number of ranked accounts at or
 * above it. Milestones nobody reached are left out. One O(log N) count per milestone on the rank engine.
 */
@Injectable()
export class LowestRanksService {
  constructor(private readonly ranks: RankReader) {}

  async lowestRanks(leaderboard: LowestRanksBoard): Promise<Record<string, number>> {
    const board = await this.ranks.scope(leaderboard, null);
    const milestones: [string, number][] =
      leaderboard === 'xp'
        ? Array.from({ length: MAX_MILESTONES }, (_, i) => [String((i + 1) * LEVEL_STEP), xpForLevel((i + 1) * LEVEL_STEP)])
        : APP_THRESHOLDS.map((threshold) => [String(threshold), threshold]);
    const answer: Record<string, number> = {};
    for (const [key, score] of milestones) {
      const reached = await this.ranks.countAtLeast(board, score);
      if (!reached) break;
      answer[key] = reached;
    }
    return answer;
  }
}
