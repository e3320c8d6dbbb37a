import { ApiProperty } from '@nestjs/swagger';
import { BADGE_TYPES } from '../entities/app-market-price.entity';

const cents = (description: string) => ApiProperty({ type: 'integer', minimum: 0, description: `${description} USD cents.` });

/** `data` of a `market-price-tick` event on `badge.pricing.subscribe`: one set's price as it changed. */
export class MarketPriceTick {
  @ApiProperty({ type: 'integer', example: 730 }) appId: number;
  @ApiProperty({ type: 'string', enum: BADGE_TYPES, description: 'Which card set: `normal` or `foil`.' }) badgeType: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Mean 24-hour market volume per card of the set.' }) averageListings: number;
  @cents('Mean lowest listing per card, in') cardAveragePrice: number;
  @cents('Sum of the cards’ lowest listings (what the set costs now), in') setPrice: number;
  @cents('Mean recent sale price per card (the buyers’ side), in') buyOrderAveragePrice: number;
  @cents('Sum of the cards’ recent sale prices, in') setBuyOrderPrice: number;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'When the price was read, Unix milliseconds.' }) updatedAt: number;
}
