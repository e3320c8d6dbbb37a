import { Injectable } from '@nestjs/common';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { V1LeaderboardListBadgesResponseBody } from './dto/leaderboard-badges.dto';
import { toLeaderboardBadge } from './mappers/leaderboard-badge.mapper';

/**
 * `leaderboard.listBadges`: every tracked badge with holder statistics, read from the maintained statistics
 * (one row per badge), so each request sees the committed totals.
 */
@Injectable()
export class LeaderboardBadgesService {
  constructor(private readonly catalog: BadgeCatalogService) {}

  async list(): Promise<V1LeaderboardListBadgesResponseBody> {
    return { badges: (await this.catalog.withHolders()).map(toLeaderboardBadge) };
  }
}
