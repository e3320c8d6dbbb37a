import { Injectable } from '@nestjs/common';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { V1LeaderboardListBadgesResponseBody } from './dto/leaderboard-badges.dto';
import { toLeaderboardBadge } from './mappers/leaderboard-badge.mapper';

/** How long one computation of the whole badge list is served: it aggregates every holding. */
const TTL_MS = 15_000;

/** `leaderboard.listBadges`: every tracked badge with holder statistics, computed at most once per TTL. */
@Injectable()
export class LeaderboardBadgesService {
  private cached: { at: number; body: Promise<V1LeaderboardListBadgesResponseBody> } | null = null;

  constructor(private readonly catalog: BadgeCatalogService) {}

  list(now = Date.now()): Promise<V1LeaderboardListBadgesResponseBody> {
    if (!this.cached || now - this.cached.at > TTL_MS) {
      const body = this.catalog.withHolders().then((badges) => ({ badges: badges.map(toLeaderboardBadge) }));
      // Concurrent callers share one computation; a failed one is not kept.
      body.catch(() => (this.cached = null));
      this.cached = { at: now, body };
    }
    return this.cached.body;
  }
}
