import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayUnique } from 'class-validator';
import { ROLES, Role } from '../../account-records/account.enums';
import { AccountSearch } from '../../account-records/dto/account-search.dto';
import { Connection, RoleRecord } from '../../account-records/dto/profile-records.dto';
import { DONOR_TIERS } from '../../account-records/donor-tiers';
import { DeveloperApp, Session } from '../../account-settings/dto/account-settings.dto';
import { RESOURCE_NAMES, Resource, ResourceName } from '../../sessions/dto/session.dto';
import { GRANTABLE_RESOURCES } from '../../account-records/resources/account-resources';

export class HistoryValue {
  @ApiProperty({ type: 'string', nullable: true, example: 'steamsets' }) new: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'steamsets' }) old: string | null;
}

export class V1AccountNameUpdate {
  @ApiProperty({ type: HistoryValue }) name: HistoryValue;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class V1AccountVanityUpdate {
  @ApiProperty({ type: HistoryValue }) vanity: HistoryValue;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class V1AccountLocationUpdate {
  @ApiProperty({ type: HistoryValue }) city: HistoryValue;
  @ApiProperty({ type: HistoryValue }) countryCode: HistoryValue;
  @ApiProperty({ type: HistoryValue }) countryName: HistoryValue;
  @ApiProperty({ type: HistoryValue }) region: HistoryValue;
  @ApiProperty({ type: HistoryValue }) state: HistoryValue;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class V1AdminGetAccountResponseBody {
  @ApiPropertyOptional({ format: 'uri', readOnly: true }) $schema?: string;
  @ApiProperty({ example: 'f1a1d2c3d0c9d1e1f2f3f4f5f6f7f8f9.jpg' }) avatar: string;
  @ApiProperty({ type: 'string', nullable: true, example: 'Bad Krozingen' }) city: string | null;
  @ApiProperty({ type: [Connection], nullable: true }) connections: Connection[] | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'DE', description: 'The country code.' }) country: string | null;
  @ApiProperty({ type: [DeveloperApp], nullable: true }) developerApps: DeveloperApp[] | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'steamsets@example.com' }) email: string | null;
  @ApiProperty({ type: [V1AccountLocationUpdate], nullable: true, description: 'Newest first.' }) locationUpdates:
    V1AccountLocationUpdate[] | null;
  @ApiProperty({ example: 'steamsets' }) name: string;
  @ApiProperty({ type: [V1AccountNameUpdate], nullable: true, description: 'Newest first.' }) nameUpdates: V1AccountNameUpdate[] | null;
  @ApiProperty({ enum: ['private', 'public', 'friends_only'] }) privacy: 'private' | 'public' | 'friends_only';
  @ApiProperty({ type: 'string', nullable: true, example: 'Europe' }) region: string | null;
  @ApiProperty({ type: [Resource], nullable: true }) resources: Resource[] | null;
  @ApiProperty({ type: [RoleRecord], nullable: true }) roles: RoleRecord[] | null;
  @ApiProperty({ type: [Session], nullable: true, description: 'Its live sessions.' }) sessions: Session[] | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'Baden-Wurttemberg' }) state: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'steamsets', description: 'Its vanity on this service.' }) vanity: string | null;
  @ApiProperty({ type: [V1AccountVanityUpdate], nullable: true, description: 'Newest first.' }) vanityUpdates:
    V1AccountVanityUpdate[] | null;
}

export class V1AdminRemoveVanityResponseBody {
  @ApiPropertyOptional({ format: 'uri', readOnly: true }) $schema?: string;
}

export class V1AdminUpdateRolesRequestBody extends AccountSearch {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...ROLES] },
    nullable: true,
    maxItems: ROLES.length,
    description: 'The account’s roles after the change (the whole set: a role left out is revoked; null or [] revokes all).',
  })
  @ArrayUnique()
  roles: Role[] | null;
}

export const OVERRIDE_TIERS = [...DONOR_TIERS, ''] as const;

export class V1AdminUpdateRoleOverrideRequestBody extends AccountSearch {
  @ApiPropertyOptional({ maxLength: 200, description: 'Reason for the override (e.g. PayPal donation, crypto donation).' })
  reason?: string;

  @ApiPropertyOptional({
    enum: OVERRIDE_TIERS,
    description: 'The tier to set (tier_1, tier_2, tier_3, tier_mythic). Empty (or left out) to remove the override.',
  })
  tier?: (typeof OVERRIDE_TIERS)[number];
}

/** Every wire resource name, the grantable ones first (a body derived from the document's first value is valid). */
const GRANT_REQUEST_NAMES = [
  ...GRANTABLE_RESOURCES,
  ...RESOURCE_NAMES.filter((name) => !(GRANTABLE_RESOURCES as readonly string[]).includes(name)),
];

export class GrantedResource {
  // Every wire resource name is accepted here (a client generated from the wire format may send any); the ones this
  // service cannot grant are refused by StaffChangesService.grantResources with a 422 naming the entry.
  @ApiProperty({
    enum: GRANT_REQUEST_NAMES,
    description: `A resource name; only ${GRANTABLE_RESOURCES.map((r) => `\`${r}\``).join(', ')} can be granted (others are a 422).`,
  })
  resource: ResourceName;

  @ApiProperty({
    maxLength: 10,
    pattern: '^(|[0-9]{1,10})$',
    example: '50',
    description: 'A whole number (decimal string) within the resource’s maximum, or "" to remove the grant.',
  })
  value: string;
}

export class V1AdminUpdateResourcesRequestBody extends AccountSearch {
  @ApiProperty({ type: [GrantedResource], nullable: true, maxItems: RESOURCE_NAMES.length })
  @Type(() => GrantedResource)
  resources: GrantedResource[] | null;
}
