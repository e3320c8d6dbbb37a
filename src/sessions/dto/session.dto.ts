import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RoleRecord } from '../../account-records/dto/profile-records.dto';
import { Session } from '../../account-settings/dto/account-settings.dto';

/** The wire's resource names; this service reports the ones it enforces (see RESOURCES_DESCRIPTION). */
export const RESOURCE_NAMES = [
  'animated_avatar',
  'auto_refresh',
  'avatar_frame',
  'background',
  'go_to_leaderboard_entry',
  'max_leaderboard_entries',
  'mini_background',
  'account_refresh_rate',
  'inventory_refresh_rate',
  'social_links',
  'vanity',
  'developer_apps',
  'account_queues',
  'short_link_domain',
  'max_find_owners',
  'max_badge_crafters',
] as const;
export type ResourceName = (typeof RESOURCE_NAMES)[number];

export class Resource {
  @ApiProperty({ enum: RESOURCE_NAMES }) resource: ResourceName;
  @ApiProperty({
    example: '1',
    description: 'The value of the resource, this can be a string, number, boolean or even a cron expression.',
  })
  value: string;
}

/** The calling session and its account (`account.getSession`). */
export class V1AccountGetSessionBody {
  @ApiProperty({ type: 'integer', example: 1 }) accountId: number;
  @ApiProperty({ example: 'f1a1d2c3d0c9d1e1f2f3f4f5f6f7f8f9.jpg', description: 'The platform avatar’s hash ("" when none is known yet).' })
  avatar: string;
  @ApiPropertyOptional({ type: 'string', format: 'email', nullable: true, description: 'null when none is set.' })
  email?: string | null;
  @ApiProperty({
    description:
      'Whether the account has never completed an update: its level, badges and ranks are not read yet (a first ' +
      'sign-in queues one; watch `account.subscribe` or poll `account.updateProgress`). False from its first completed update on.',
  })
  isNew: boolean;
  @ApiProperty({ type: 'integer', example: 1 }) level: number;
  @ApiProperty({ example: 'flo' }) name: string;
  @ApiProperty({ type: [Resource], nullable: true }) resources: Resource[] | null;
  @ApiProperty({ type: [RoleRecord], nullable: true }) roles: RoleRecord[] | null;
  @ApiProperty({ type: Session, description: 'The calling session itself.' }) sessionData: Session;
  @ApiProperty({ example: '76561197960265729' }) steamId: string;
  @ApiProperty({ type: 'integer', example: 10000 }) xp: number;
}

export class V1AccountDeleteSessionRequestBody {
  @ApiProperty({
    minLength: 1,
    maxLength: 64,
    example: 'ses_0123456789abcdef',
    description: 'One of the calling account’s sessions, as `account.getSettings` lists them.',
  })
  sessionId: string;
}

/** Nothing but its `$schema`: the session is ended. */
export class V1AccountDeleteSessionResponseBody {}
