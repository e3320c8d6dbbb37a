import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { INT32_MAX } from '../../common/wire/bounds';
import { CursorPageRequest } from '../../common/wire/cursor-page.dto';

export class AppListOwnersRequestBody extends CursorPageRequest {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, example: 730 })
  appId: number;
}

/** An owner of the app; `playtime` is the minutes played on that app. */
export class AppListOwnersEntry extends LeaderboardAccount {}

export class AppListOwnersResponseBody {
  @ApiProperty({ type: [AppListOwnersEntry], nullable: true, description: 'Highest playtime on the app first.' })
  owners: (AppListOwnersEntry | null)[] | null;
  @ApiProperty({ type: 'integer', description: 'The largest page the caller’s tier allows.' }) maxPageSize: number;
  @ApiPropertyOptional({ description: 'Absent on the last page.' }) nextCursor?: string;
  @ApiProperty({ type: 'integer', description: 'Owners of the app among tracked accounts.' }) trackedOwners: number;
}
