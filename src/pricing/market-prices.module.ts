import { Module } from '@nestjs/common';
import { BadgeCostsService } from './badge-costs.service';

/** Reads of the stored market prices for other areas (profile cost fields); app badges join the table directly. */
@Module({ providers: [BadgeCostsService], exports: [BadgeCostsService] })
export class MarketPricesModule {}
