import { RoleRecord } from '../../account-records/dto/profile-records.dto';
import { steamId64Of } from '../../account-records/account.enums';
import { maxPageSizeOf, STAFF_ROLES, TIER_PAGE_SIZES } from '../../account-records/donor-tiers';
import { toSession } from '../../account-settings/mappers/settings.mapper';
import { UserSessionEntity } from '../../auth/entities/user-session.entity';
import { Resource, V1AccountGetSessionBody } from '../dto/session.dto';

/** The limits the resources report, as the service enforces them (see RESOURCES_DESCRIPTION). */
export interface ResourceLimits {
  developerAppsPerAccount: number;
  updateCooldownSeconds: number;
}

export interface SessionAccountRow {
  account_id: number;
  name: string;
  avatar: string;
  level: number;
  xp: number;
  is_new: boolean;
  /** Lifetime donations, cents: with the roles, the donor tier. */
  donated: number;
  email: string | null;
  roles: RoleRecord[];
  /** Resources an operator granted the account (account-records/resources): resource → value. */
  granted?: Record<string, string>;
}

/** What `resources` says, stated once for the OpenAPI description. */
export const RESOURCES_DESCRIPTION = [
  '`resources` lists the per-account limits this service enforces, each `value` a decimal string:',
  '`developer_apps` — live developer apps the account may hold (`DEVELOPER_APPS_PER_ACCOUNT`; one more is a 409);',
  `\`max_badge_crafters\` — the largest page of \`badge.listCrafters\` by donor tier: ${TIER_PAGE_SIZES};`,
  '`max_find_owners` — the largest page of `app.listOwners` (the same perk);',
  '`account_refresh_rate` — seconds between two updates of an account the caller may queue (`UPDATE_COOLDOWN_SECONDS`;',
  '`0` for `staff`, `owner` and `developer`, who may skip it with `force`);',
  '`inventory_refresh_rate` — seconds between two `account.refreshInventory` of the account (the same cooldown, for everyone).',
  'An operator may grant an account another `developer_apps`, `max_badge_crafters` or `max_find_owners` (`admin.updateResources`),',
  'which then replaces the computed value where it is enforced.',
  'Resources the reference names and this service does not limit are left out.',
].join(' ');

/** The resources an account has: computed, with the ones an operator granted it in their place. */
export function toResources(row: Pick<SessionAccountRow, 'donated' | 'roles' | 'granted'>, limits: ResourceLimits): Resource[] {
  const roles = row.roles.map((held) => held.role);
  const pageSize = String(maxPageSizeOf(row.donated, row.roles));
  const cooldown = String(limits.updateCooldownSeconds);
  const computed: Resource[] = [
    { resource: 'developer_apps', value: String(limits.developerAppsPerAccount) },
    { resource: 'max_badge_crafters', value: pageSize },
    { resource: 'max_find_owners', value: pageSize },
    { resource: 'account_refresh_rate', value: roles.some((role) => STAFF_ROLES.includes(role)) ? '0' : cooldown },
    { resource: 'inventory_refresh_rate', value: cooldown },
  ];
  return computed.map((resource) => ({ resource: resource.resource, value: row.granted?.[resource.resource] ?? resource.value }));
}

export function toSessionBody(row: SessionAccountRow, session: UserSessionEntity, limits: ResourceLimits): V1AccountGetSessionBody {
  return {
    accountId: row.account_id,
    avatar: row.avatar,
    email: row.email || null,
    isNew: row.is_new,
    level: row.level,
    name: row.name,
    resources: toResources(row, limits),
    roles: row.roles,
    sessionData: toSession(session),
    steamId: steamId64Of(row.account_id),
    xp: row.xp,
  };
}
