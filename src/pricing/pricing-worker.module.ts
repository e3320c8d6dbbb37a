import { Module } from '@nestjs/common';
import { PlatformModule } from '../platform/platform.module';
import { AppPricer } from './app-pricer.service';
import { AppCardSets } from './app-card-sets.service';
import { BadgeArt } from './badge-art.service';
import { PriceTicks } from './price-ticks';
import { PricingCycle } from './pricing-cycle.service';
import { PricingProcessor } from './pricing.processor';

/** The pricing job (see pricing.module.ts): its scheduler, worker and cycle. Worker process only. */
@Module({
  imports: [PlatformModule],
  providers: [PriceTicks, AppPricer, AppCardSets, BadgeArt, PricingCycle, PricingProcessor],
  exports: [AppCardSets, BadgeArt],
})
export class PricingWorkerModule {}
