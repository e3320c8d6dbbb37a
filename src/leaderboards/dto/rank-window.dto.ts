import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { INT32_MAX } from '../../common/wire/bounds';

const rankField = (description: string) =>
  ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, nullable: true, example: 1, description });

/** The window fields every leaderboard request shares (account boards, the group board); see `rankWindow`. */
export class RankWindowRequest {
  @rankField('First rank of the window (1-based, inclusive); default 1.') @IsOptional() @IsInt() @Min(0) @Max(INT32_MAX) start?:
    number | null;
  @rankField('Last rank of the window (inclusive); default start + 9.') @IsOptional() @IsInt() @Min(0) @Max(INT32_MAX) end?: number | null;
  @rankField('Centre the window on this rank.') @IsOptional() @IsInt() @Min(0) @Max(INT32_MAX) goToLeaderboardRank?: number | null;
}
