import { ApiProperty } from '@nestjs/swagger';

export const LOWEST_RANKS_BOARDS = ['apps', 'xp'] as const;
export type LowestRanksBoard = (typeof LOWEST_RANKS_BOARDS)[number];

export class V1LeaderboardGetLowestRanksRequestBody {
  @ApiProperty({ enum: LOWEST_RANKS_BOARDS, example: 'xp' })
  leaderboard: LowestRanksBoard;
}
