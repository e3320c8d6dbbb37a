import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { INT32_MAX } from '../../common/wire/bounds';
import { VANITY_TYPES, VanityType } from '../account.enums';

export class IDSearch {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, description: 'The 32-bit account id.' })
  accountId?: number;

  @ApiPropertyOptional({
    minLength: 17,
    maxLength: 17,
    pattern: '^\\d{17}$',
    example: '76561198842603734',
    description: 'The 64-bit id as a decimal string.',
  })
  steamId64?: string;
}

/** What a vanity is, on this service and in a search: 2–32 ASCII letters and digits (compared without regard to case). */
export const VANITY_MIN_LENGTH = 2;
export const VANITY_MAX_LENGTH = 32;
export const VANITY_PATTERN = /^[a-zA-Z0-9]+$/;

export class VanitySearch {
  @ApiProperty({ enum: VANITY_TYPES, description: '`steam`: the platform custom URL name; `internal`: the vanity on this service.' })
  type: VanityType;

  @ApiProperty({ minLength: VANITY_MIN_LENGTH, maxLength: VANITY_MAX_LENGTH, pattern: VANITY_PATTERN.source })
  value: string;
}

/** Names one account: `id.accountId` wins over `id.steamId64`, which wins over `vanity`. */
export class AccountSearch {
  @ApiPropertyOptional({ type: IDSearch })
  @Type(() => IDSearch)
  id?: IDSearch;

  @ApiPropertyOptional({ type: VanitySearch })
  @Type(() => VanitySearch)
  vanity?: VanitySearch;
}

/** An account listing paged by number, with a name filter (`account.listBadges`, `account.listApps`). */
export class AccountPageRequest extends AccountSearch {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 100_000, default: 1 })
  page?: number;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 100, description: 'Name contains this (case-insensitive).' })
  search?: string | null;
}
