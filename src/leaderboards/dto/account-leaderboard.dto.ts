import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { AccountBadgeInfo } from '../../apps/dto/app-badges.dto';
import { INT32_MAX } from '../../common/wire/bounds';
import { ACCOUNT_BOARDS, AccountBoard } from '../../ranks/account-boards';
import { RankWindowRequest } from './rank-window.dto';

export class V1AccountLeaderboardAppSearch {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, example: 730 })
  appId?: number;
}

export class V1AccountLeaderboardBadgeSearch {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: INT32_MAX,
    description: 'An app id, or a special badge id (1–64) with isFoil false.',
  })
  id: number;

  @ApiProperty() isFoil: boolean;
}

const locationName = (example: string) => ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 100, example });

export class V1LeaderboardLocation {
  @locationName('Europe') region?: string | null;
  @locationName('Germany') country?: string | null;
  @locationName('Baden-Wurttemberg') state?: string | null;
  @locationName('Bad Krozingen') city?: string | null;
}

// The location items are written as a nullable allOf (see `location`), which registers no model by itself.
@ApiExtraModels(V1LeaderboardLocation)
export class V1LeaderboardGetAccountLeaderboardRequestBody extends RankWindowRequest {
  @ApiProperty({ enum: ACCOUNT_BOARDS, example: 'xp' }) leaderboard: AccountBoard;

  @ApiPropertyOptional({
    type: V1AccountLeaderboardAppSearch,
    nullable: true,
    description: 'Required by app_playtime and app_valid_playtime.',
  })
  @Type(() => V1AccountLeaderboardAppSearch)
  app?: V1AccountLeaderboardAppSearch | null;

  @ApiPropertyOptional({ type: V1AccountLeaderboardBadgeSearch, nullable: true, description: 'Required by the badge_* boards.' })
  @Type(() => V1AccountLeaderboardBadgeSearch)
  badge?: V1AccountLeaderboardBadgeSearch | null;

  @ApiPropertyOptional({
    type: 'array',
    // The wire allows null elements; they name no location and are skipped.
    items: { allOf: [{ $ref: getSchemaPath(V1LeaderboardLocation) }], nullable: true },
    maxItems: 10,
    nullable: true,
    description: 'Any of these locations; omit for the global board. Null entries are skipped.',
  })
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.filter((item) => item !== null) : value))
  @Type(() => V1LeaderboardLocation)
  location?: (V1LeaderboardLocation | null)[] | null;
}

export class V1AccountLeaderboardAccount extends LeaderboardAccount {
  @ApiProperty({ type: 'integer', example: 1 }) rank: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Minutes on the board’s app (app boards).' }) appPlaytime: number | null;
  @ApiPropertyOptional({ type: AccountBadgeInfo, nullable: true, description: 'The account’s copy of the board’s badge (badge boards).' })
  badgeInfo?: AccountBadgeInfo | null;
}

export class V1LeaderboardAppInfo {
  @ApiProperty({ type: 'integer', example: 730 }) id: number;
  @ApiProperty() name: string;
  @ApiProperty() image: string;
  @ApiProperty({ example: 'game' }) type: string;
}

export class V1LeaderboardBadgeInfo {
  @ApiProperty({ type: 'integer' }) appId: number;
  @ApiProperty() appName: string;
  @ApiProperty() appImage: string;
  @ApiProperty() image: string;
  @ApiProperty() isFoil: boolean;
  @ApiProperty({ type: 'integer', example: 15 }) level: number;
  @ApiProperty() name: string;
}

export class V1LeaderboardLocationInfo {
  @ApiProperty({ type: 'string', nullable: true }) region: string | null;
  @ApiProperty({ type: 'string', nullable: true }) countryName: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'DE' }) countryCode: string | null;
  @ApiProperty({ type: 'string', nullable: true }) stateName: string | null;
  @ApiProperty({ type: 'string', nullable: true }) cityName: string | null;
}

export class V1LeaderboardGetAccountLeaderboardResponseBody {
  @ApiProperty({ type: [V1AccountLeaderboardAccount], nullable: true }) accounts: (V1AccountLeaderboardAccount | null)[] | null;
  @ApiProperty({
    type: 'integer',
    default: 0,
    description: 'Accounts on the board, hidden ones included (they keep their rank; their rows are null).',
  })
  rankedOutOf: number;
  @ApiPropertyOptional({ type: V1AccountLeaderboardAccount, nullable: true, description: 'The caller, when ranked outside the window.' })
  ownAccount?: V1AccountLeaderboardAccount | null;
  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    nullable: true,
    description: 'Ranks in the window held by accounts that chose to be hidden; their entries in `accounts` are null.',
  })
  hiddenRanks?: number[] | null;
  @ApiPropertyOptional({ type: V1LeaderboardAppInfo, nullable: true }) app?: V1LeaderboardAppInfo | null;
  @ApiPropertyOptional({ type: V1LeaderboardBadgeInfo, nullable: true }) badgeInfo?: V1LeaderboardBadgeInfo | null;
  @ApiPropertyOptional({ type: [V1LeaderboardLocationInfo], nullable: true }) location?: V1LeaderboardLocationInfo[] | null;
}
