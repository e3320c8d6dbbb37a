import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { AccountSearch } from '../../account-records/dto/account-search.dto';
import { INT32_MAX } from '../../common/wire/bounds';
import { V1LeaderboardGetAccountLeaderboardRequestBody } from '../../leaderboards/dto/account-leaderboard.dto';
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

/** The board's request fields are `leaderboard.getAccountLeaderboard`'s own (schemas and validation alike), then the range. */
export class LeaderboardExportRequestBody extends PickType(V1LeaderboardGetAccountLeaderboardRequestBody, [
  'leaderboard',
  'app',
  'badge',
  'location',
] as const) {
  @rankField('First position to export (1-based, inclusive); default 1.') start?: number | null;
  @rankField('Last position to export (inclusive); default the end of the board.') end?: number | null;

  @formatField() format?: ExportFormat;
}
