import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { RanksModule } from '../ranks/ranks.module';
import { DonationsController } from './donations.controller';
import { DonationsService } from './donations.service';

@Module({
  imports: [AccountRecordsModule, RanksModule],
  controllers: [DonationsController],
  providers: [DonationsService],
  exports: [DonationsService],
})
export class DonationsModule {}
