import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { SearchGetTrendingRequestBody, SearchGetTrendingResponseBody } from './dto/search-trending.dto';
import { SearchTrendsService } from './search-trends.service';

@ApiTags('search')
@Controller('v1')
export class SearchController {
  constructor(private readonly trends: SearchTrendsService) {}

  @WireOperation({
    operationId: 'search.getTrending',
    summary: 'Top search queries in a window, by distinct searchers',
    description:
      'Ranked by distinct searchers per hour (24h) or per day (7d, 30d), summed; the counts are exact over the window. No credential needed.',
    auth: 'optional',
    response: SearchGetTrendingResponseBody,
    errors: [400, 422, 500],
  })
  getTrending(@Body() body: SearchGetTrendingRequestBody): Promise<SearchGetTrendingResponseBody> {
    return this.trends.trending(body);
  }
}
