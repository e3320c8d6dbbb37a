import { Module } from '@nestjs/common';
import { SearchController } from './search.controller';
import { SearchTrendsService } from './search-trends.service';

/** Trending searches; the searches are counted by the areas that serve them (badge, app and account look-ups). */
@Module({ controllers: [SearchController], providers: [SearchTrendsService], exports: [SearchTrendsService] })
export class SearchModule {}
