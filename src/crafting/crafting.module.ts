import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { CardQuoteBook } from './card-quote-book';
import { CardSetBook } from './card-set-book';
import { CraftingPlanService } from './crafting-plan.service';
import { CraftingController } from './crafting.controller';

/** The crafting planner (crafting-plan.service.ts): per-card costs of levelling an account's badges. */
@Module({
  imports: [AccountRecordsModule],
  controllers: [CraftingController],
  providers: [CraftingPlanService, CardQuoteBook, CardSetBook],
  exports: [CraftingPlanService],
})
export class CraftingModule {}
