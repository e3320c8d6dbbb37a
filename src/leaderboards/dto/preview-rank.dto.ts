import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AccountSearch } from '../../account-records/dto/account-search.dto';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { INT32_MAX } from '../../common/wire/bounds';
import { AccountBoard, PREVIEW_BOARDS } from '../../ranks/account-boards';

export class V1LeaderboardPreviewAccountRankRequestBody extends AccountSearch {
  @ApiProperty({ enum: PREVIEW_BOARDS, example: 'xp' }) leaderboard: AccountBoard;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    nullable: true,
    minimum: 0,
    maximum: INT32_MAX,
    description: 'A hypothetical score; without it the account’s current score (scores are 32-bit columns).',
  })
  value?: number | null;
}

export class PreviewAccount extends LeaderboardAccount {
  @ApiProperty({ type: 'integer', example: 1 }) rank: number;
  @ApiProperty({ type: 'integer', example: 100 }) score: number;
  @ApiProperty({ type: 'integer', example: 10, description: 'This row’s score minus the previewed score.' }) differenceToUs: number;
}

export class V1LeaderboardPreviewAccountRankResponseBody {
  @ApiPropertyOptional({ type: PreviewAccount, nullable: true, description: 'The account at its (previewed) rank.' })
  ownAccount?: PreviewAccount | null;
  @ApiPropertyOptional({ type: PreviewAccount, nullable: true, description: 'One rank better.' }) rankedAbove?: PreviewAccount | null;
  @ApiPropertyOptional({ type: PreviewAccount, nullable: true, description: 'One rank worse.' }) rankedBelow?: PreviewAccount | null;
  @ApiProperty({ type: 'integer', default: 0 }) rankedOutOf: number;
}
