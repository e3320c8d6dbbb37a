import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { V1AppBadge } from '../../apps/dto/app-badges.dto';
import { INT32_MAX } from '../../common/wire/bounds';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from '../../common/wire/cursor';
import { ACTIVITY_EVENT_TYPES } from '../entities/activity-event.entity';

export const FEED_DEFAULT_LIMIT = 20;

export class V1ActivityListAccountFeedRequestBody {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, description: 'The 32-bit account id.' })
  accountId: number;

  @ApiPropertyOptional({
    maxLength: CURSOR_MAX_LENGTH,
    pattern: CURSOR_PATTERN,
    description: '`nextCursor` of the previous page; omit for the most recent events.',
  })
  cursor?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 40 },
    maxItems: 10,
    nullable: true,
    example: ACTIVITY_EVENT_TYPES,
    description: 'Only these types; empty or absent means all.',
  })
  eventTypes?: string[] | null;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: FEED_DEFAULT_LIMIT, minimum: 1, maximum: 100 })
  limit?: number;
}

export class V1ActivityListGlobalFeedRequestBody extends OmitType(V1ActivityListAccountFeedRequestBody, ['accountId'] as const) {}

export class V1ActivityLevelChange {
  @ApiProperty({ type: 'integer' }) previous: number;
  @ApiProperty({ type: 'integer' }) current: number;
}

export class V1ActivityScarcity {
  @ApiProperty({ type: 'integer', description: '1 means the first craft among tracked accounts.' }) globalCraftOrder: number;
}

export class V1ActivityLocation {
  @ApiProperty({ example: 'global', description: '`global`: rank milestones are measured on the global boards.' }) type: string;
  @ApiPropertyOptional({ example: 'DE' }) countryCode?: string;
  @ApiPropertyOptional({ example: 'Germany' }) countryName?: string;
  @ApiPropertyOptional({ example: 'Europe' }) region?: string;
}

export class V1ActivityRankChange {
  @ApiProperty({ example: 'xp', description: 'The board (a `Leaderboard D′` name).' }) leaderboard: string;
  @ApiProperty({ example: 'top_100', description: '`top_10`, `top_100` or `top_1000`: the tightest top the account entered.' })
  bucket: string;
  @ApiProperty({ type: 'integer', description: 'The global rank at the previous refresh; 0 means previously unranked.' }) previous: number;
  @ApiProperty({ type: 'integer' }) current: number;
  @ApiProperty({ type: V1ActivityLocation }) location: V1ActivityLocation;
}

/**
 * One event of a feed. `badge_crafted` carries `appBadge`, `level_milestone` `level`, `scarcity_milestone` `appBadge` and
 * `scarcity`, `rank_milestone` `rank`.
 */
export class V1ActivityEvent {
  @ApiProperty({ type: 'integer' }) accountId: number;
  @ApiProperty({ example: 'badge_crafted', description: '`badge_crafted`, `level_milestone`, `rank_milestone` or `scarcity_milestone`.' })
  eventType: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiPropertyOptional({ type: LeaderboardAccount, nullable: true }) account?: LeaderboardAccount | null;
  @ApiPropertyOptional({ type: V1AppBadge }) appBadge?: V1AppBadge;
  @ApiPropertyOptional({ type: V1ActivityLevelChange }) level?: V1ActivityLevelChange;
  @ApiPropertyOptional({ type: V1ActivityScarcity }) scarcity?: V1ActivityScarcity;
  @ApiPropertyOptional({ type: V1ActivityRankChange }) rank?: V1ActivityRankChange;
}

export class V1ActivityListAccountFeedResponseBody {
  @ApiProperty({ type: [V1ActivityEvent], nullable: true, description: 'Newest first.' }) events: V1ActivityEvent[] | null;
  @ApiPropertyOptional({ description: 'Absent when there are no more events.' }) nextCursor?: string;
}

export class V1ActivityListGlobalFeedResponseBody extends V1ActivityListAccountFeedResponseBody {}
