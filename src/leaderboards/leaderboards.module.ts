import { Module } from '@nestjs/common';
import { BadgesModule } from '../badges/badges.module';
import { LeaderboardsController } from './leaderboards.controller';

@Module({ imports: [BadgesModule], controllers: [LeaderboardsController] })
export class LeaderboardsModule {}
