import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';

export const BUCKET_BOARDS = ['xp', 'apps'] as const;

export class V1LeaderboardGetBucketLeadersRequestBody {
  @ApiProperty({
    enum: BUCKET_BOARDS,
    example: 'xp',
    description: '`xp`: buckets of levels; `apps`: buckets of the game-collector thresholds.',
  })
  leaderboard: (typeof BUCKET_BOARDS)[number];

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    default: 10,
    minimum: 1,
    maximum: 1000,
    description: 'Levels per bucket (xp only).',
  })
  bucketSize?: number;
}

export class BucketLeader {
  @ApiProperty({ type: 'integer', example: 10, description: 'Inclusive lower bound (a level, or a game count).' }) from: number;
  @ApiProperty({ type: 'integer', example: 19, description: 'Inclusive upper bound; ignore when `open`.' }) to: number;
  @ApiProperty({ description: 'The bucket has no upper bound.' }) open: boolean;
  @ApiProperty({ description: 'No account is in the bucket.' }) empty: boolean;
  @ApiPropertyOptional({ type: 'integer', example: 312, description: 'The leader’s rank on the whole board.' }) rank?: number;
  @ApiPropertyOptional({ type: 'integer', example: 6342 }) score?: number;
  @ApiPropertyOptional({ type: LeaderboardAccount, nullable: true }) account?: LeaderboardAccount | null;
}
