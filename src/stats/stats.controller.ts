import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1Stats } from './dto/v1-stats.dto';
import { StatsService } from './stats.service';

@ApiTags('stats')
@Controller('v1')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @WireOperation({
    operationId: 'stats.getStats',
    summary: 'Platform statistics',
    description:
      'All-time totals over the tracked accounts (accounts added and refreshed, badges, apps, playtime, bans, …), kept ' +
      'up to date by every update; `stats.subscribe` streams the same totals live.',
    auth: 'any',
    response: V1Stats,
    errors: [400, 401, 500],
    noBody: true,
  })
  getStats(): Promise<V1Stats> {
    return this.stats.getStats();
  }
}
