import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { TrendingCounter } from '../common/redis/trending-counter';
import { SEARCH_SOURCES, SearchGetTrendingRequestBody, SearchGetTrendingResponseBody, SearchSource } from './dto/search-trending.dto';

/**
 * Search queries typed into the service's search surfaces, counted per source. Queries are compared case- and
 * space-insensitively; the form first typed is the one shown.
 */
@Injectable()
export class SearchTrendsService implements OnApplicationBootstrap {
  private readonly logger = new JsonLogger('SearchTrends');
  private readonly counters: Record<SearchSource, TrendingCounter>;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.counters = Object.fromEntries(
      SEARCH_SOURCES.map((source) => [source, new TrendingCounter(redis, redisKey(config, 'search', source))]),
    ) as Record<SearchSource, TrendingCounter>;
  }

  /** Moves an earlier version's hit sets into hashes, in the background (hit-totals-upgrade.ts). */
  onApplicationBootstrap(): void {
    for (const counter of Object.values(this.counters))
      counter.moveLegacyHits().catch((error: unknown) => this.logger.warn({ msg: 'search hits not moved yet', error: String(error) }));
  }

  /** Counts one search; a failure to count never fails the search itself. */
  async record(source: SearchSource, query: string, searcher: string): Promise<void> {
    const normalized = query.trim().replace(/\s+/g, ' ').toLowerCase();
    if (!normalized) return;
    try {
      await this.redis.hsetnx(this.firstTyped(source), normalized, query.trim());
      await this.counters[source].hit(normalized, searcher);
    } catch (error) {
      this.logger.warn({ msg: 'search not counted', error: String(error) });
    }
  }

  async trending(request: SearchGetTrendingRequestBody): Promise<SearchGetTrendingResponseBody> {
    const top = await this.counters[request.source].top(request.window, request.limit ?? 100);
    const typed = top.length ? await this.redis.hmget(this.firstTyped(request.source), ...top.map((row) => row.member)) : [];
    return { searches: top.map((row, i) => ({ query: typed[i] ?? row.member, uniqueSearchers: row.unique, totalSearches: row.total })) };
  }

  private firstTyped(source: SearchSource): string {
    return redisKey(this.config, 'search', source, 'first-typed');
  }
}
