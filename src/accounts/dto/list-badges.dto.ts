import { RawJson } from '../../common/wire/raw-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { INT32_MAX } from '../../common/wire/bounds';
import { V1AppBadge } from '../../apps/dto/app-badges.dto';
import { AccountPageRequest } from '../../account-records/dto/account-search.dto';
import { AppIdList } from '../../common/wire/app-id-list.decorator';

export const BADGE_ORDER_BY = ['xp', 'level', 'scarcity', 'name', 'completion_time'] as const;
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const LEGACY_BADGE_FILTERS = ['foil', 'sale', 'event'] as const;
/** Badges per page of `account.listBadges`. */
export const BADGES_PAGE_SIZE = 50;

/**
 * int32: what a range filters fits one (a badge's level and an app's playtime in minutes are int32 columns; scarcity
 * counts tracked accounts, far below 2^31), so a bound past it can only be a mistake or a probe: 422, not a query.
 */
const bound = () =>
  ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: -INT32_MAX - 1, maximum: INT32_MAX, description: 'Inclusive.' });

export class Range {
  @bound() min?: number;
  @bound() max?: number;
}

export class V1BadgeOrder {
  @ApiPropertyOptional({ enum: BADGE_ORDER_BY, default: 'xp' })
  by?: (typeof BADGE_ORDER_BY)[number];

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'desc' })
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
  hasHighestLevel?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true }) isEvent?: boolean | null;
  @ApiPropertyOptional({ type: 'boolean', nullable: true }) isFoil?: boolean | null;
  @ApiPropertyOptional({ type: 'boolean', nullable: true }) isSale?: boolean | null;

  @ApiPropertyOptional({ type: Range })
  @Type(() => Range)
  level?: Range;

  @ApiPropertyOptional({ type: Range })
  @Type(() => Range)
  scarcity?: Range;
}

export class BadgeValueFilter {
  @ApiProperty({ enum: ['level', 'scarcity'] })
  type: 'level' | 'scarcity';

  @ApiProperty({ maxLength: 10, pattern: '^\\d{1,10}$', description: 'An exact value, as a decimal string.' })
  value: string;
}

export class V1AccountListBadgesRequest extends AccountPageRequest {
  @ApiPropertyOptional({ type: V1BadgeOrder, nullable: true })
  @Type(() => V1BadgeOrder)
  order?: V1BadgeOrder | null;

  @ApiPropertyOptional({ type: V1BadgeFilters })
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
  filter?: (typeof LEGACY_BADGE_FILTERS)[number][] | null;

  @ApiPropertyOptional({
    type: [BadgeValueFilter],
    maxItems: 10,
    nullable: true,
    deprecated: true,
    description: 'Use `filters.level` / `filters.scarcity`.',
  })
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
