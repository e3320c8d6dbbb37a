import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INT32_MAX } from '../../common/wire/bounds';
import { PROFILE_RANK_BOARDS } from '../../ranks/account-boards';
import { WATCH_KINDS, WatchKind } from '../entities/account-watch.entity';

/** Watches one account may hold, fired ones included (deleting one frees its place). */
export const WATCHES_PER_ACCOUNT = 50;
export const WATCH_ID = /^wch_[0-9a-f]{16}$/;
export const WATCH_DIRECTIONS = ['reaches', 'leaves'] as const;

const KIND_DESCRIPTION =
  '`setPrice`: the set price of an app’s cards (normal or foil, `appId`, `foil`) at or below `atOrBelowCents`, checked ' +
  'each time the pricing job stores a changed price. `rank`: the global rank of `accountId` on `leaderboard` crossing ' +
  '`rank` (`reaches`: becomes `rank` or better; `leaves`: becomes worse than `rank` or unranked), checked when that ' +
  'account’s update completes. `friendBadge`: a friend of the caller (the friend `accountId` only, if given) crafts a ' +
  'badge level (of `appId` only, if given), seen when the friend’s update completes.';

export class V1AccountCreateWatchRequest {
  @ApiProperty({ enum: [...WATCH_KINDS], example: 'friendBadge', description: KIND_DESCRIPTION }) kind: WatchKind;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: INT32_MAX,
    example: 440,
    description: '`setPrice`: the app of the card set (required). `friendBadge`: only badges of this app (optional).',
  })
  appId?: number;

  @ApiPropertyOptional({ default: false, description: '`setPrice`: the foil set instead of the normal one.' })
  foil?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: INT32_MAX,
    example: 150,
    description: '`setPrice` (required): fires when the set price, in USD cents, is at or below this.',
  })
  atOrBelowCents?: number;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: INT32_MAX,
    example: 1,
    description:
      '`rank`: the account whose rank is watched (required). `friendBadge`: only this friend of the caller (optional; any friend without it).',
  })
  accountId?: number;

  @ApiPropertyOptional({ enum: PROFILE_RANK_BOARDS, example: 'xp', description: '`rank` (required): the board.' })
  leaderboard?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: INT32_MAX,
    example: 100,
    description: '`rank` (required): the global rank crossed.',
  })
  rank?: number;

  @ApiPropertyOptional({ enum: [...WATCH_DIRECTIONS], default: 'reaches', description: '`rank`: which way the crossing goes.' })
  direction?: (typeof WATCH_DIRECTIONS)[number];
}

export class V1AccountWatchRequest {
  @ApiProperty({ maxLength: 20, pattern: WATCH_ID.source, example: 'wch_0123456789abcdef' }) watchId: string;
}

export class Watch {
  @ApiProperty({ example: 'wch_0123456789abcdef' }) watchId: string;
  @ApiProperty({ enum: [...WATCH_KINDS] }) kind: WatchKind;
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true }) appId: number | null;
  @ApiProperty({ type: 'boolean', nullable: true }) foil: boolean | null;
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true }) atOrBelowCents: number | null;
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true }) accountId: number | null;
  @ApiProperty({ type: 'string', nullable: true }) leaderboard: string | null;
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true }) rank: number | null;
  @ApiProperty({ type: 'string', enum: [...WATCH_DIRECTIONS], nullable: true }) direction: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When it fired; null while it waits.' })
  firedAt: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'What was seen when it fired: `setPrice` (cents); `rank` and `previousRank` (null: unranked); `badgeId`, `appId`, `level`.',
  })
  fired: Record<string, unknown> | null;
}

export class V1AccountCreateWatchResponseBody {
  @ApiProperty({ type: Watch }) watch: Watch;
}

export class V1AccountListWatchesResponseBody {
  @ApiProperty({ type: [Watch], description: `Newest first; at most ${WATCHES_PER_ACCOUNT}.` }) watches: Watch[];
}
