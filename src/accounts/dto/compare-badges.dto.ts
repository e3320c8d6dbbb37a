import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { AccountSearch } from '../../account-records/dto/account-search.dto';
import { SORT_DIRECTIONS } from './list-badges.dto';
import { AppIdList } from '../../common/wire/app-id-list.decorator';

export const COMPARE_MODES = ['missing', 'ownedByAll', 'unique'] as const;
export const COMPARE_MATCHES = ['tuple', 'tupleLevel', 'tupleMinLevel'] as const;
export const COMPARE_FILTERS = ['all', 'normal', 'foil'] as const;
export const COMPARE_IGNORES = ['event', 'sale', 'steam', 'infinite'] as const;
export const COMPARE_ORDER_BY = ['scarcity', 'level', 'name', 'xp', 'completedAt'] as const;
export const RANGE_FILTER_TYPES = ['scarcity'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];
export type CompareMatch = (typeof COMPARE_MATCHES)[number];
export type CompareOrderBy = (typeof COMPARE_ORDER_BY)[number];

/** Accounts one `account.compareBadges` request may compare; more → 422. */
export const MAX_COMPARED_ACCOUNTS = 10;
/** Tuples per page of `account.compareBadges`. */
export const COMPARE_PAGE_SIZE = 50;

const INT32_MAX = 2147483647;

export class DifferenceFilter {
  @ApiProperty({ type: AccountSearch, description: 'Holds the badge (as `match` counts holding); one of `accounts`.' })
  @Type(() => AccountSearch)
  has: AccountSearch;

  @ApiProperty({ type: AccountSearch, description: 'Does not hold it (as `match` counts holding); one of `accounts`.' })
  @Type(() => AccountSearch)
  lacks: AccountSearch;
}

export class Order {
  @ApiPropertyOptional({
    enum: COMPARE_ORDER_BY,
    default: 'scarcity',
    description:
      '`scarcity`: the platform’s holder count; `name`: the badge name; `level`, `xp`: the highest among the compared accounts; `completedAt`: the latest completion among them. Ties: badge id, same direction.',
  })
  by?: CompareOrderBy;

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'desc' })
  direction?: (typeof SORT_DIRECTIONS)[number];
}

export class RangeFilter {
  @ApiProperty({ enum: RANGE_FILTER_TYPES })
  type: (typeof RANGE_FILTER_TYPES)[number];

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, description: 'Inclusive.' })
  min?: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, description: 'Inclusive.' })
  max?: number;
}

export class V1AccountCompareBadgesRequestBody {
  @ApiProperty({
    type: [AccountSearch],
    minItems: 1,
    maxItems: MAX_COMPARED_ACCOUNTS,
    description: `The accounts to compare: 1 to ${MAX_COMPARED_ACCOUNTS} (more → 422). An account named twice is compared once.`,
  })
  @Type(() => AccountSearch)
  accounts: AccountSearch[];

  @AppIdList()
  appIds?: number[] | null;

  @AppIdList()
  excludeAppIds?: number[] | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 32 },
    maxItems: 20,
    nullable: true,
    description: 'App types, case-insensitive: `game` (badges of an app) or `steam` (the platform’s special badges).',
  })
  appTypes?: string[] | null;

  @ApiPropertyOptional({ type: DifferenceFilter, description: 'Narrows the result of `mode` to badges `has` holds and `lacks` does not.' })
  @Type(() => DifferenceFilter)
  difference?: DifferenceFilter;

  @ApiPropertyOptional({ enum: COMPARE_FILTERS, default: 'all' })
  filter?: (typeof COMPARE_FILTERS)[number];

  @ApiPropertyOptional({
    enum: COMPARE_IGNORES,
    isArray: true,
    maxItems: 10,
    nullable: true,
    description:
      '`event`, `sale`: event and sale badges; `steam`: the platform’s special badges (no app); `infinite`: badges without a level cap (event and sale badges, years of service).',
  })
  ignore?: (typeof COMPARE_IGNORES)[number][] | null;

  @ApiPropertyOptional({
    enum: COMPARE_MATCHES,
    default: 'tuple',
    description:
      'When an account counts as holding a badge: `tuple` at any level; `tupleLevel` at the highest level any compared account holds it at; `tupleMinLevel` at `minLevel` or above.',
  })
  match?: CompareMatch;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: INT32_MAX,
    default: 1,
    description: 'Used only with `match=tupleMinLevel`.',
  })
  minLevel?: number;

  @ApiPropertyOptional({
    enum: COMPARE_MODES,
    default: 'missing',
    description:
      'Which badges: `missing` held by at least one compared account and not by all; `ownedByAll` held by every one; `unique` held by exactly one.',
  })
  mode?: CompareMode;

  @ApiPropertyOptional({ type: Order })
  @Type(() => Order)
  order?: Order;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 100_000, default: 1 })
  page?: number;

  @ApiPropertyOptional({ type: [RangeFilter], maxItems: 10, nullable: true, description: 'Every range must hold.' })
  @Type(() => RangeFilter)
  ranges?: RangeFilter[] | null;
}

export class ResolvedAccount {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 }) accountId: number;
  @ApiProperty({ example: '76561198842603734' }) steamId: string;
  @ApiProperty() avatar: string;
  @ApiPropertyOptional({ description: 'Its vanity on this service, else its platform custom URL name; absent with neither.' })
  vanity?: string;
}

export class TupleAccount {
  @ApiProperty({ example: '76561198842603734' }) steamId: string;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, description: '0 when the account does not hold the badge.' }) level: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 }) xp: number;
  @ApiPropertyOptional({ format: 'date-time', description: 'Absent when the account does not hold the badge.' }) completedAt?: string;
}

export class ComparedTuple {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, description: '0 for the platform’s special badges.' }) appId: number;
  @ApiProperty() appName: string;
  @ApiProperty() appImage: string;
  @ApiProperty({ example: 'game', description: '`game`, or `steam` for the platform’s special badges.' }) appType: string;
  @ApiProperty({
    description:
      'The platform’s name of the badge (its badge page’s, at the lowest level a tracked account holds); until read, the app’s name and “Badge”.',
  })
  badgeName: string;
  @ApiProperty({ description: 'The platform’s image file of the badge (`<hash>.png`, from the same page); empty until read.' })
  badgeImage: string;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, description: 'The platform’s badge id.' }) steamId: number;
  @ApiProperty() isEvent: boolean;
  @ApiProperty() isFoil: boolean;
  @ApiProperty() isSale: boolean;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    description: '1 for foil, 5 for an app badge; for a badge without a known cap, the highest level a tracked account holds.',
  })
  maxLevel: number;
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 0, description: 'Holders on the platform, as it reports it.' })
  scarcity: number;
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 0, description: 'Holders among tracked accounts.' }) trackedHolders: number;
  @ApiProperty({ type: [TupleAccount], nullable: true, description: 'Every compared account, in the order of `accounts`.' })
  accounts: TupleAccount[] | null;
}

export class V1AccountCompareBadgesResponseBody {
  @ApiProperty({ type: [ResolvedAccount], nullable: true, description: 'The compared accounts, in request order.' })
  accounts: ResolvedAccount[] | null;
  @ApiProperty({ type: [ComparedTuple], nullable: true, description: `The page, ${COMPARE_PAGE_SIZE} tuples at most.` })
  tuples: ComparedTuple[] | null;
  @ApiProperty({ type: 'integer', example: 1 }) pages: number;
  @ApiProperty({ type: 'integer', example: 1 }) totalHits: number;
}
