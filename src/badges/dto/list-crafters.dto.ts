import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { CursorPageRequest } from '../../common/wire/cursor-page.dto';

export class BadgeListCraftersRequestBody extends CursorPageRequest {
  @ApiProperty({ maxLength: 14, pattern: '^bdg_\\d{1,10}$', example: 'bdg_123', description: 'The badge’s public id.' })
  badgeId: string;
}

export class BadgeListCraftersEntry extends LeaderboardAccount {
  @ApiProperty({ format: 'date-time', description: 'When this account crafted the badge (UTC).' }) completedAt: string;
}

export class BadgeListCraftersResponseBody {
  @ApiProperty({ type: [BadgeListCraftersEntry], nullable: true, description: 'Earliest completion first.' })
  crafters: (BadgeListCraftersEntry | null)[] | null;
  @ApiProperty({ type: 'integer', description: 'The largest page the caller’s tier allows.' }) maxPageSize: number;
  @ApiPropertyOptional({ description: 'Absent on the last page.' }) nextCursor?: string;
  @ApiProperty({ type: 'integer', description: 'Holders of the badge among tracked accounts.' }) trackedHolders: number;
}
