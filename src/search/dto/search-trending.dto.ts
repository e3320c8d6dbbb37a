import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TRENDING_WINDOWS, TrendingWindow } from '../../common/redis/trending-counter';

export const SEARCH_SOURCES = ['badge', 'app', 'account'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

export class SearchGetTrendingRequestBody {
  @ApiProperty({
    enum: SEARCH_SOURCES,
    description: 'badge: `account.listBadges` searches; app: `account.listApps`; account: profile look-ups by vanity.',
  })
  source: SearchSource;

  @ApiProperty({ enum: TRENDING_WINDOWS, example: '7d' }) window: TrendingWindow;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 100, minimum: 1, maximum: 1000 })
  limit?: number;
}

export class TrendingSearch {
  @ApiProperty({ description: 'As first typed.' }) query: string;
  @ApiProperty({ type: 'integer' }) uniqueSearchers: number;
  @ApiProperty({ type: 'integer' }) totalSearches: number;
}

export class SearchGetTrendingResponseBody {
  @ApiProperty({ type: [TrendingSearch], nullable: true, description: 'Most distinct searchers first.' }) searches: TrendingSearch[] | null;
}
