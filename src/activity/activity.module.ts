import { Module } from '@nestjs/common';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { BadgesModule } from '../badges/badges.module';
import { ActivityController } from './activity.controller';
import { ActivityFeedService } from './activity-feed.service';
import { ActivityRecorder } from './activity-recorder';
import { ActivityStreamService } from './activity-stream.service';

/** Activity feeds and their live stream; the events are recorded by the update worker (ActivityRecorder). */
@Module({
  imports: [LeaderboardAccountsModule, BadgesModule],
  controllers: [ActivityController],
  providers: [ActivityFeedService, ActivityRecorder, ActivityStreamService],
})
export class ActivityModule {}
