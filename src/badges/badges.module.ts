import { Module } from '@nestjs/common';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { BadgeCatalogService } from './badge-catalog.service';
import { BadgeCraftersService } from './badge-crafters.service';
import { BadgesController } from './badges.controller';
import { BadgeTagsService } from './tags/badge-tags.service';

/** Badge definitions, their holder statistics (shared with apps and leaderboards) and their crafters. */
@Module({
  imports: [LeaderboardAccountsModule],
  controllers: [BadgesController],
  providers: [BadgeCatalogService, BadgeCraftersService, BadgeTagsService],
  exports: [BadgeCatalogService],
})
export class BadgesModule {}
