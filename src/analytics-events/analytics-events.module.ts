import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { AccountsModule } from '../accounts/accounts.module';
import { AuthModule } from '../auth/auth.module';
import { SearchModule } from '../search/search.module';
import { AnalyticsEventsController } from './analytics-events.controller';
import { AnalyticsEventsService } from './analytics-events.service';

/** `analytics.trackEvent`: the web app's own events, counted by the views and search trends (analytics-events.service.ts). */
@Module({
  imports: [AuthModule, AccountRecordsModule, AccountsModule, SearchModule],
  controllers: [AnalyticsEventsController],
  providers: [AnalyticsEventsService],
})
export class AnalyticsEventsModule {}
