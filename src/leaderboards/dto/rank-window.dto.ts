import { ApiPropertyOptional } from '@nestjs/swagger';
import { INT32_MAX } from '../../common/wire/bounds';

const rankField = (description: string) =>
  ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, nullable: true, example: 1, description });

/** The window fields every leaderboard request shares (account boards, the group board); see `rankWindow`. */
export class RankWindowRequest {
  @rankField('First rank of the window (1-based, inclusive); default 1.') start?: number | null;
  @rankField('Last rank of the window (inclusive); default start + 9.') end?: number | null;
  @rankField('Centre the window on this rank.') goToLeaderboardRank?: number | null;
}
