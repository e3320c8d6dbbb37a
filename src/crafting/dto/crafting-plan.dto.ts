import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { AccountSearch } from '../../account-records/dto/account-search.dto';
import { SORT_DIRECTIONS } from '../../accounts/dto/list-badges.dto';
import { INT32_MAX } from '../../common/wire/bounds';

export const BADGE_TYPES = ['normal', 'foil'] as const;
export type CraftingBadgeType = (typeof BADGE_TYPES)[number];
export const PLAN_ORDER_BY = ['costPerXp', 'cost', 'costToMaxLevel', 'levelsCraftable', 'appId'] as const;
export type PlanOrderBy = (typeof PLAN_ORDER_BY)[number];
/** Badges per page of `account.getCraftingPlan` by default, and at most. */
export const PLAN_PAGE_SIZE = 50;
export const PLAN_PAGE_MAX = 100;

export class V1CraftingPlanFilters {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, description: 'Only this app’s badges.' })
  appId?: number;

  @ApiPropertyOptional({ enum: BADGE_TYPES, description: 'Only normal or only foil badges.' })
  badgeType?: CraftingBadgeType;

  @ApiPropertyOptional({
    type: 'boolean',
    description: '`true`: only badges with a level craftable from the cards held now; `false`: only those without.',
  })
  craftableNow?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: INT32_MAX,
    description: 'USD cents: only badges whose next level costs at most this (`cost`); badges of unknown cost are left out.',
  })
  maxCost?: number;
}

export class V1CraftingPlanOrder {
  @ApiProperty({ enum: PLAN_ORDER_BY })
  by: PlanOrderBy;

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'asc', description: 'Badges of unknown cost come last either way.' })
  direction?: (typeof SORT_DIRECTIONS)[number];
}

export class V1AccountGetCraftingPlanRequestBody extends AccountSearch {
  @ApiPropertyOptional({ type: V1CraftingPlanFilters })
  @Type(() => V1CraftingPlanFilters)
  filters?: V1CraftingPlanFilters;

  @ApiPropertyOptional({ type: V1CraftingPlanOrder, description: 'Default: `costPerXp`, ascending (the cheapest xp first).' })
  @Type(() => V1CraftingPlanOrder)
  order?: V1CraftingPlanOrder;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 100_000, default: 1 })
  page?: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: PLAN_PAGE_MAX, default: PLAN_PAGE_SIZE })
  limit?: number;
}

export class V1CraftingCard {
  @ApiProperty({ example: '440-Heavy', description: 'The card’s market hash name (foil cards end in " (Foil)").' })
  marketHashName: string;

  @ApiProperty({ type: 'integer', description: 'Copies the account’s inventory holds (0: missing).' })
  held: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'USD cents: the card’s own lowest sell listing; null when nobody lists it or it was never quoted.',
  })
  lowestPrice: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'When this card’s quote was read, Unix milliseconds; null: never.' })
  priceUpdatedAt: number | null;
}

export class V1CraftingBadge {
  @ApiProperty({ type: 'integer', example: 440 }) appId: number;
  @ApiProperty({ description: "The app’s name ('' when the service has not read it)." }) appName: string;
  @ApiProperty({ enum: BADGE_TYPES }) badgeType: CraftingBadgeType;
  @ApiProperty({ type: 'integer', description: 'The account’s level of this badge now (0: not crafted).' }) level: number;
  @ApiProperty({ type: 'integer', description: '5 for a normal badge, 1 for a foil one.' }) maxLevel: number;
  @ApiProperty({ type: 'integer', description: 'The xp a level of this badge gives.' }) xpPerLevel: number;

  @ApiProperty({ type: [V1CraftingCard], description: 'Every card of the set, in the set’s order: held (with copies) or missing.' })
  cards: V1CraftingCard[];

  @ApiProperty({ type: 'integer', description: 'Cards of the set the account holds no copy of.' }) missingCards: number;

  @ApiProperty({
    type: 'integer',
    description: 'Levels the cards held make now: the fewest copies of any card of the set, at most the levels left.',
  })
  levelsCraftableNow: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'USD cents: the next level’s missing cards, one of each, each at its own lowest price (0 when a level is craftable now); ' +
      'null when a missing card has no price.',
  })
  cost: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'USD cents: the cards to buy to reach the highest level (per card: levels left less copies held), at each card’s own lowest price; null when one of them has no price.',
  })
  costToMaxLevel: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'USD cents per xp of the next level: `cost` / `xpPerLevel`.' })
  costPerXp: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The oldest quote among the set’s cards, Unix milliseconds (null: none quoted).',
  })
  pricesUpdatedAt: number | null;
}

export class V1CraftingTotals {
  @ApiProperty({ type: 'integer', description: 'Badges the account can level (all of them, whatever the filters).' }) badges: number;
  @ApiProperty({ type: 'integer' }) levelsCraftableNow: number;
  @ApiProperty({ type: 'integer', description: 'The xp those levels give.' }) xpCraftableNow: number;
  @ApiProperty({ type: 'integer', description: 'USD cents: the sum of the known `cost`s (the next level of every badge).' }) cost: number;
  @ApiProperty({ type: 'integer', description: 'USD cents: the sum of the known `costToMaxLevel`s.' }) costToMaxLevel: number;
  @ApiProperty({ type: 'integer', description: 'Badges whose cost is unknown (a needed card has no price): left out of the sums.' })
  unpricedBadges: number;
  @ApiProperty({
    type: 'integer',
    description: 'Apps of the account whose card set the service has not read yet: not planned until it has.',
  })
  unknownSets: number;
}

export class V1AccountGetCraftingPlanResponseBody {
  @ApiProperty({ type: [V1CraftingBadge] }) badges: V1CraftingBadge[];
  @ApiProperty({ type: V1CraftingTotals }) totals: V1CraftingTotals;
  @ApiProperty({ type: 'integer' }) page: number;
  @ApiProperty({ type: 'integer' }) pages: number;
  @ApiProperty({ type: 'integer', description: 'Badges matching the filters.' }) totalHits: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The oldest card quote the plan uses, Unix milliseconds.' })
  pricesUpdatedAt: number | null;
  @ApiProperty({ type: 'integer', description: 'The inventory’s last refresh, Unix milliseconds.' }) inventoryUpdatedAt: number;
}
