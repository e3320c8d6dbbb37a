import { Module } from '@nestjs/common';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { BadgeCatalogService } from './badge-catalog.service';
import { BadgeCraftersService } from './badge-crafters.service';
import { BadgesController } from './badges.controller';
import { BadgeTagsService } from './tags/badge-tags.service';
import { TagReviewsController } from './tag-reviews/tag-reviews.controller';
import { TagReviewsService } from './tag-reviews/tag-reviews.service';

/** Badge definitions, their holder statistics (shared with apps and leaderboards), their crafters, tags and tag reviews. */
@Module({
  imports: [LeaderboardAccountsModule],
  controllers: [BadgesController, TagReviewsController],
  providers: [BadgeCatalogService, BadgeCraftersService, BadgeTagsService, TagReviewsService],
  exports: [BadgeCatalogService],
})
export class BadgesModule {}
