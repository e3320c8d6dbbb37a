import { RoleRecord } from '../../account-records/dto/profile-records.dto';
import { steamId64Of } from '../../account-records/account.enums';
import { pageSizeForRoles } from '../../account-records/cards/leaderboard-accounts.service';
import { toSession } from '../../account-settings/mappers/settings.mapper';
import { UserSessionEntity } from '../../auth/entities/user-session.entity';
import { Resource, V1AccountGetSessionBody } from '../dto/session.dto';

/** The roles that may skip an account's update cooldown (`force` of account.queueUpdate). */
const FORCING_ROLES = new Set(['staff', 'owner', 'developer']);

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
  email: string | null;
  roles: RoleRecord[];
}

/** What `resources` says, stated once for the OpenAPI description. */
export const RESOURCES_DESCRIPTION = [
  '`resources` lists the per-account limits this service enforces, each `value` a decimal string:',
  '`developer_apps` — live developer apps the account may hold (`DEVELOPER_APPS_PER_ACCOUNT`; one more is a 409);',
  '`max_badge_crafters` — the largest page of `badge.listCrafters` (25; 100 for `donator`; 500 for `staff`, `owner`, `developer`);',
  '`max_find_owners` — the largest page of `app.listOwners` (the same perk);',
  '`account_refresh_rate` — seconds between two updates of an account the caller may queue (`UPDATE_COOLDOWN_SECONDS`;',
  '`0` for `staff`, `owner` and `developer`, who may skip it with `force`);',
  '`inventory_refresh_rate` — seconds between two `account.refreshInventory` of the account (the same cooldown, for everyone).',
  'Resources the reference names and this service does not limit are left out.',
].join(' ');

export function toResources(roles: string[], limits: ResourceLimits): Resource[] {
  const pageSize = String(pageSizeForRoles(roles));
  const cooldown = String(limits.updateCooldownSeconds);
  return [
    { resource: 'developer_apps', value: String(limits.developerAppsPerAccount) },
    { resource: 'max_badge_crafters', value: pageSize },
    { resource: 'max_find_owners', value: pageSize },
    { resource: 'account_refresh_rate', value: roles.some((role) => FORCING_ROLES.has(role)) ? '0' : cooldown },
    { resource: 'inventory_refresh_rate', value: cooldown },
  ];
}

export function toSessionBody(row: SessionAccountRow, session: UserSessionEntity, limits: ResourceLimits): V1AccountGetSessionBody {
  return {
    accountId: row.account_id,
    avatar: row.avatar,
    email: row.email || null,
    isNew: row.is_new,
    level: row.level,
    name: row.name,
    resources: toResources(
      row.roles.map((role) => role.role),
      limits,
    ),
    roles: row.roles,
    sessionData: toSession(session),
    steamId: steamId64Of(row.account_id),
    xp: row.xp,
  };
}
