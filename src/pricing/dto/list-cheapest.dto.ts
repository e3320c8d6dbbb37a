import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INT32_MAX } from '../../common/wire/bounds';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from '../../common/wire/cursor';
import { BADGE_TYPES, BadgeType } from '../entities/app-market-price.entity';

export const CHEAPEST_SORTS = ['setCost', 'costPerXp'] as const;
export type CheapestSort = (typeof CHEAPEST_SORTS)[number];
export const CHEAPEST_MAX_LIMIT = 100;
export const CHEAPEST_DEFAULT_LIMIT = 20;

const cents = (description: string) =>
  ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, description });

export class BadgeListCheapestRequestBody {
  @ApiPropertyOptional({ enum: BADGE_TYPES, description: 'Only normal or only foil badges; both when omitted.' })
  badgeType?: BadgeType;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: INT32_MAX,
    example: 730,
    description: 'Only this app’s badges.',
  })
  appId?: number;

  @cents('Only sets costing at least this, USD cents (a cost per xp of at least minSetCost / 100).')
  minSetCost?: number;

  @cents('Only sets costing at most this, USD cents.')
  maxSetCost?: number;

  @ApiPropertyOptional({
    enum: CHEAPEST_SORTS,
    default: 'setCost',
    description:
      'Cheapest first by the cost of one set or by cost per xp. Every level of a game badge, normal or foil, gives 100 xp, so both give the same order.',
  })
  sort?: CheapestSort;

  @ApiPropertyOptional({
    maxLength: CURSOR_MAX_LENGTH,
    pattern: CURSOR_PATTERN,
    description: '`nextCursor` of the previous page; omit on the first page.',
  })
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: CHEAPEST_MAX_LIMIT, default: CHEAPEST_DEFAULT_LIMIT })
  limit?: number;
}

const int32 = (description: string) => ApiProperty({ type: 'integer', format: 'int32', minimum: 0, description });

export class CheapestBadge {
  @int32('The app of the badge.') appId: number;
  @ApiProperty({ description: 'The app’s name; empty until the service has seen it.' }) appName: string;
  @ApiProperty({ enum: BADGE_TYPES }) badgeType: BadgeType;
  @int32('Trading cards in the set (one of each is consumed per level).') cards: number;
  @int32('What one full set costs now: the sum of each card’s own lowest sell listing, USD cents.') setCost: number;
  @int32('Xp one level gives (100 for every game badge level, normal or foil).') xpPerLevel: number;
  @ApiProperty({ type: 'number', minimum: 0, description: 'USD cents per xp: setCost / xpPerLevel.' }) costPerXp: number;
  @int32('Levels the badge has (5 normal, 1 foil).') maxLevel: number;
  @int32('What every level from none costs at today’s prices: maxLevel × setCost, USD cents (clamped to int32).') fullBadgeCost: number;
  @int32('Mean 24-hour sales per card of the set.') averageVolume: number;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'When the oldest of the set’s card quotes was read: how old these prices are at most. Null until the card quotes are stored.',
  })
  pricesAsOf: string | null;
}

export class BadgeListCheapestResponseBody {
  @ApiProperty({ type: [CheapestBadge], description: 'Cheapest first; ties by app id, then foil before normal.' })
  badges: CheapestBadge[];
  @ApiPropertyOptional({ description: 'Absent on the last page.' }) nextCursor?: string;
}
