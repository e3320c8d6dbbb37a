import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { AccountSearch } from '../../account-records/dto/account-search.dto';
import { INT32_MAX } from '../../common/wire/bounds';
import {
  V1AccountLeaderboardAppSearch,
  V1AccountLeaderboardBadgeSearch,
  V1LeaderboardLocation,
} from '../../leaderboards/dto/account-leaderboard.dto';
import { ACCOUNT_BOARDS, AccountBoard } from '../../ranks/account-boards';
import { EXPORT_FORMATS, ExportFormat } from '../export-writer';

/** The sections of `account.export`, in the order they are written (a later section joins this list). */
export const ACCOUNT_EXPORT_SECTIONS = ['profile', 'badges', 'apps', 'craftingPlan'] as const;
export type AccountExportSection = (typeof ACCOUNT_EXPORT_SECTIONS)[number];

const formatField = () =>
  ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    default: 'ndjson',
    description: '`ndjson`: one JSON value per line (`application/x-ndjson`); `csv`: a header line, then one record per row (`text/csv`).',
  });

export class AccountExportRequestBody extends AccountSearch {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...ACCOUNT_EXPORT_SECTIONS] },
    minItems: 1,
    maxItems: ACCOUNT_EXPORT_SECTIONS.length,
    uniqueItems: true,
    description: 'What to export; default all (NDJSON). A CSV export is one table: it takes exactly one section (422 otherwise).',
  })
  sections?: AccountExportSection[];

  @formatField() format?: ExportFormat;
}

const rankField = (description: string) =>
  ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, nullable: true, example: 1, description });

// The location items are written as a nullable allOf (as in leaderboard.getAccountLeaderboard).
@ApiExtraModels(V1LeaderboardLocation)
export class LeaderboardExportRequestBody {
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
    items: { allOf: [{ $ref: getSchemaPath(V1LeaderboardLocation) }], nullable: true },
    maxItems: 10,
    nullable: true,
    description: 'Any of these locations; omit for the global board. Null entries are skipped.',
  })
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.filter((item) => item !== null) : value))
  @Type(() => V1LeaderboardLocation)
  location?: (V1LeaderboardLocation | null)[] | null;

  @rankField('First position to export (1-based, inclusive); default 1.') start?: number | null;
  @rankField('Last position to export (inclusive); default the end of the board.') end?: number | null;

  @formatField() format?: ExportFormat;
}
