import { RawJson } from '../../common/wire/raw-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { AccountBoard, CHANGE_BOARDS } from '../../ranks/account-boards';

export const CHANGE_WINDOWS = ['24h', '7d', '30d', '90d', '1y'] as const;
export const TOP_FILTERS = ['10', '50', '100', '500', '1000', 'all'] as const;

export class LeaderboardGetChangesRequestBody {
  @ApiProperty({ enum: CHANGE_BOARDS, example: 'xp' }) leaderboard: AccountBoard;
  @ApiProperty({ enum: CHANGE_WINDOWS, example: '7d' }) window: (typeof CHANGE_WINDOWS)[number];
  @ApiProperty({ enum: ['score', 'rank'] }) metric: 'score' | 'rank';
  @ApiProperty({ enum: ['improvements', 'declines'] }) direction: 'improvements' | 'declines';

  @ApiPropertyOptional({ enum: TOP_FILTERS, default: 'all', description: 'Only accounts in the top N at either end of the window.' })
  topFilter?: (typeof TOP_FILTERS)[number];

  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 100, minimum: 1, maximum: 1000 })
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 0, minimum: 0, maximum: 10_000_000 })
  offset?: number;
}

export class LeaderboardChange {
  @ApiProperty({ type: 'integer' }) accountId: number;
  @ApiProperty({ type: 'integer', description: 'Rank at the window’s start; 0 when the score was 0 (unranked).' }) oldRank: number;
  @ApiProperty({ type: 'integer', description: 'Rank now; 0 when the score is 0 (unranked).' }) newRank: number;
  @ApiProperty({
    type: 'integer',
    description:
      'oldRank − newRank, positive is a climb; an unranked end counts as the place after that end’s last ranked account (entering the board is a climb).',
  })
  rankDelta: number;
  @ApiProperty({ type: 'integer' }) oldScore: number;
  @ApiProperty({ type: 'integer' }) newScore: number;
  @ApiProperty({ type: 'integer' }) scoreDelta: number;
  @ApiProperty({ format: 'date-time', description: 'The latest update in the window.' }) latestDate: string;
  @ApiPropertyOptional({ type: LeaderboardAccount, nullable: true }) account?: LeaderboardAccount | RawJson<LeaderboardAccount> | null;
}

export class LeaderboardGetChangesResponseBody {
  @ApiProperty({ type: [LeaderboardChange], nullable: true }) changes: LeaderboardChange[] | null;
}
