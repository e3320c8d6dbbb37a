import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';

export const LOWEST_RANKS_BOARDS = ['apps', 'xp'] as const;
export type LowestRanksBoard = (typeof LOWEST_RANKS_BOARDS)[number];

export class V1LeaderboardGetLowestRanksRequestBody {
  @ApiProperty({ enum: LOWEST_RANKS_BOARDS, example: 'xp' })
  @IsIn(LOWEST_RANKS_BOARDS)
  leaderboard: LowestRanksBoard;
}
