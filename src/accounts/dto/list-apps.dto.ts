import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { AccountPageRequest } from '../../account-records/dto/account-search.dto';
import { Range, SORT_DIRECTIONS } from './list-badges.dto';

export const APP_ORDER_BY = ['appId', 'playtime'] as const;
/** Apps per page of `account.listApps`. */
export const APPS_PAGE_SIZE = 50;

export class V1AppOrder {
  @ApiProperty({ enum: APP_ORDER_BY })
  by: (typeof APP_ORDER_BY)[number];

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'desc' })
  direction?: (typeof SORT_DIRECTIONS)[number];
}

export class V1AppFilters {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 32,
    example: 'game',
    description: 'Libraries hold games only, so any other type matches nothing.',
  })
  appType?: string | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true }) excludeEvents?: boolean | null;
  @ApiPropertyOptional({ type: 'boolean', nullable: true }) excludeSales?: boolean | null;

  @ApiPropertyOptional({ type: Range, description: 'Minutes.' })
  @Type(() => Range)
  playtime?: Range;
}

export class V1AccountListAppsRequest extends AccountPageRequest {
  @ApiPropertyOptional({ type: V1AppOrder, nullable: true, description: 'Default: playtime, descending.' })
  @Type(() => V1AppOrder)
  order?: V1AppOrder | null;

  @ApiPropertyOptional({ type: V1AppFilters })
  @Type(() => V1AppFilters)
  filters?: V1AppFilters;
}

export class V1AccountApp {
  @ApiProperty({ type: 'integer', example: 730 }) id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Icon hash.' }) image: string;
  @ApiProperty({ type: 'integer', description: 'Minutes.' }) playtime: number;
  @ApiProperty({
    type: 'integer',
    deprecated: true,
    example: 1200,
    description:
      'USD cents: what a set of the app’s normal trading cards costs on the market now (its badge’s `price`); 0 for an app without cards or not priced yet. The platform’s Web API publishes no store price.',
  })
  price: number;
}

export class V1AccountListAppsResponseBody {
  @ApiProperty({ type: [V1AccountApp], nullable: true }) apps: V1AccountApp[] | null;
  @ApiProperty({ type: 'integer' }) pages: number;
  @ApiProperty({ type: 'integer' }) totalHits: number;
}
