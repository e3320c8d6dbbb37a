import { Module } from '@nestjs/common';
import { BadgeCatalogService } from './badge-catalog.service';

/** Badge definitions and their holder statistics, shared by the app and leaderboard areas. */
@Module({ providers: [BadgeCatalogService], exports: [BadgeCatalogService] })
export class BadgesModule {}
