import { ApiPropertyOptional } from '@nestjs/swagger';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from './cursor';

/** The paging fields of the donor-perk listings (`badge.listCrafters`, `app.listOwners`). */
export class CursorPageRequest {
  @ApiPropertyOptional({
    maxLength: CURSOR_MAX_LENGTH,
    pattern: CURSOR_PATTERN,
    description: '`nextCursor` of the previous page; omit on the first page.',
  })
  cursor?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 10_000,
    description: 'Page size; more than the tier’s `maxPageSize` is clamped to it.',
  })
  limit?: number;
}
