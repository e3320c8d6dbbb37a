import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { CardQuoteBook } from './card-quote-book';
import { CardSetBook } from './card-set-book';
import { CraftingPlanService } from './crafting-plan.service';
import { CraftingController } from './crafting.controller';
import { DropsWorthController } from './drops/drops-worth.controller';
import { DropsWorthService } from './drops/drops-worth.service';
import { PlatformModule } from '../platform/platform.module';

/**
 * The crafting planner (crafting-plan.service.ts): per-card costs of levelling an account's badges; and the worth of
 * the card drops its games have left (drops/drops-worth.service.ts).
 */
@Module({
  imports: [AccountRecordsModule, PlatformModule],
  controllers: [CraftingController, DropsWorthController],
  providers: [CraftingPlanService, CardQuoteBook, CardSetBook, DropsWorthService],
  exports: [CraftingPlanService],
})
export class CraftingModule {}
