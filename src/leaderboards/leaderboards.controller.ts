import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1LeaderboardListBadgesResponseBody } from './dto/leaderboard-badges.dto';
import { toLeaderboardBadge } from './mappers/leaderboard-badge.mapper';

@ApiTags('leaderboard')
@Controller('v1')
export class LeaderboardsController {
  constructor(private readonly catalog: BadgeCatalogService) {}

  @WireOperation({
    operationId: 'leaderboard.listBadges',
    summary: 'Badges available for leaderboard tracking',
    description: 'Every badge held by at least one tracked account, with completion statistics and rarity.',
    auth: 'any',
    response: V1LeaderboardListBadgesResponseBody,
    errors: [400, 401, 500],
    noBody: true,
  })
  async listBadges(): Promise<V1LeaderboardListBadgesResponseBody> {
    return { badges: (await this.catalog.withHolders()).map(toLeaderboardBadge) };
  }
}
