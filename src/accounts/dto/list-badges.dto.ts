import { RawJson } from '../../common/wire/raw-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { INT64_SAFE_MAX } from '../../common/wire/bounds';
import { V1AppBadge } from '../../apps/dto/app-badges.dto';
import { AccountPageRequest } from '../../account-records/dto/account-search.dto';
import { AppIdList } from '../../common/wire/app-id-list.decorator';

export const BADGE_ORDER_BY = ['xp', 'level', 'scarcity', 'name', 'completion_time'] as const;
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const LEGACY_BADGE_FILTERS = ['foil', 'sale', 'event'] as const;
/** Badges per page of `account.listBadges`. */
export const BADGES_PAGE_SIZE = 50;

const bound = () =>
  ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: -INT64_SAFE_MAX, maximum: INT64_SAFE_MAX, description: 'Inclusive.' });

export class Range {
  @bound() @IsOptional() @IsInt() @Min(-INT64_SAFE_MAX) @Max(INT64_SAFE_MAX) min?: number;
  @bound() @IsOptional() @IsInt() @Min(-INT64_SAFE_MAX) @Max(INT64_SAFE_MAX) max?: number;
}

export class V1BadgeOrder {
  @ApiPropertyOptional({ enum: BADGE_ORDER_BY, default: 'xp' })
  @IsOptional()
  @IsIn(BADGE_ORDER_BY)
  by?: (typeof BADGE_ORDER_BY)[number];

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'desc' })
  @IsOptional()
  @IsIn(SORT_DIRECTIONS)
  direction?: (typeof SORT_DIRECTIONS)[number];
}

export class V1BadgeFilters {
  @AppIdList()
  appIds?: number[] | null;

  @ApiPropertyOptional({
    type: 'boolean',
    nullable: true,
    description: 'true: only badges where the account holds the highest known level.',
  })
  @IsOptional()
  @IsBoolean()
  hasHighestLevel?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true }) @IsOptional() @IsBoolean() isEvent?: boolean | null;
  @ApiPropertyOptional({ type: 'boolean', nullable: true }) @IsOptional() @IsBoolean() isFoil?: boolean | null;
  @ApiPropertyOptional({ type: 'boolean', nullable: true }) @IsOptional() @IsBoolean() isSale?: boolean | null;

  @ApiPropertyOptional({ type: Range })
  @IsOptional()
  @ValidateNested()
  @Type(() => Range)
  level?: Range;

  @ApiPropertyOptional({ type: Range })
  @IsOptional()
  @ValidateNested()
  @Type(() => Range)
  scarcity?: Range;
}

export class BadgeValueFilter {
  @ApiProperty({ enum: ['level', 'scarcity'] })
  @IsIn(['level', 'scarcity'])
  type: 'level' | 'scarcity';

  @ApiProperty({ maxLength: 10, pattern: '^\\d{1,10}$', description: 'An exact value, as a decimal string.' })
  @IsString()
  @MaxLength(10)
  @Matches(/^\d{1,10}$/, { message: 'value must be a whole number' })
  value: string;
}

export class V1AccountListBadgesRequest extends AccountPageRequest {
  @ApiPropertyOptional({ type: V1BadgeOrder, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => V1BadgeOrder)
  order?: V1BadgeOrder | null;

  @ApiPropertyOptional({ type: V1BadgeFilters })
  @IsOptional()
  @ValidateNested()
  @Type(() => V1BadgeFilters)
  filters?: V1BadgeFilters;

  @ApiPropertyOptional({
    enum: LEGACY_BADGE_FILTERS,
    isArray: true,
    maxItems: 10,
    nullable: true,
    deprecated: true,
    description: 'Use `filters`.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(LEGACY_BADGE_FILTERS, { each: true })
  filter?: (typeof LEGACY_BADGE_FILTERS)[number][] | null;

  @ApiPropertyOptional({
    type: [BadgeValueFilter],
    maxItems: 10,
    nullable: true,
    deprecated: true,
    description: 'Use `filters.level` / `filters.scarcity`.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => BadgeValueFilter)
  valueFilter?: BadgeValueFilter[] | null;
}

export class V1AccountListBadgesResponseBody {
  @ApiProperty({
    type: [V1AppBadge],
    nullable: true,
    description: `The page, ${BADGES_PAGE_SIZE} badges at most, with \`accountInfo\` filled in.`,
  })
  badges: V1AppBadge[] | RawJson<V1AppBadge[]> | null;
  @ApiProperty({ type: 'integer' }) pages: number;
  @ApiProperty({ type: 'integer' }) totalHits: number;
}
