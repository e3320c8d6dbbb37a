import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The paging fields of the donor-perk listings (`badge.listCrafters`, `app.listOwners`). */
export class CursorPageRequest {
  @ApiPropertyOptional({ description: '`nextCursor` of the previous page; omit on the first page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Page size; more than the tier’s `maxPageSize` is clamped to it.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  limit?: number;
}
