import { Module } from '@nestjs/common';
import { BadgePriceBook } from './badge-price-book';

/** Reads of the stored market prices for other areas (profile cost fields); app badges join the table directly. */
@Module({ providers: [BadgePriceBook], exports: [BadgePriceBook] })
export class MarketPricesModule {}
