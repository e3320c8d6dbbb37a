import { Module } from '@nestjs/common';
import { StatsEventsModule } from './events/stats-events.module';
import { StatsStreamService } from './events/stats-stream.service';
import { StatsStreamController } from './stats-stream.controller';
import { StatsController } from './stats.controller';
import { StatsService } from './stats.service';
import { PlatformTotalsModule } from './totals/platform-totals.module';

@Module({
  imports: [StatsEventsModule, PlatformTotalsModule],
  controllers: [StatsController, StatsStreamController],
  providers: [StatsService, StatsStreamService],
  exports: [StatsService],
})
export class StatsModule {}
