import { ApiKeyService } from '../../auth/api-key.service';
import { UsageAnalytics } from '../../auth/api-key-usage.service';
import { ApiKeyEntity } from '../../auth/entities/api-key.entity';
import { UserSessionEntity } from '../../auth/entities/user-session.entity';
import { ChosenRole, DeveloperApp, DeveloperAppAnalytics, Session, V1AccountGetSettingsBody } from '../dto/account-settings.dto';
import { ROLES } from '../../account-records/account.enums';
import { DonorTier, HeldRole } from '../../account-records/donor-tiers';
import { Connection, Image } from '../../account-records/dto/profile-records.dto';
import { AccountSettingsEntity } from '../../account-records/entities/account-settings.entity';
import { AccountEntity } from '../../account-records/entities/account.entity';

export function toAnalytics(usage: UsageAnalytics): DeveloperAppAnalytics {
  return {
    last24Hours: usage.last24Hours,
    timeSeries: { hourly: usage.timeSeries.hourly.map((point) => ({ ...point, time: point.time.toISOString() })) },
  };
}

export function toDeveloperApp(key: ApiKeyEntity, usage: UsageAnalytics | undefined): DeveloperApp {
  return {
    id: key.keyId,
    keyId: key.keyId,
    name: key.name,
    description: key.description,
    environment: key.environment,
    createdAt: key.createdAt.toISOString(),
    apiKey: ApiKeyService.masked(key),
    ...(usage ? { analytics: toAnalytics(usage) } : {}),
  };
}

export function toSession(session: UserSessionEntity): Session {
  return {
    sessionId: session.sessionId,
    ip: session.ip,
    userAgent: session.userAgent,
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    lastSeen: session.lastSeen.toISOString(),
  };
}

export interface SettingsParts {
  account: AccountEntity;
  settings: AccountSettingsEntity;
  keys: ApiKeyEntity[];
  sessions: UserSessionEntity[];
  perKey: Map<string, UsageAnalytics>;
  total: UsageAnalytics;
  images: Image[];
  connections: Connection[];
  chosenRole: ChosenRole | null;
}

/**
 * The role shown beside the account: the one its user chose (`account.updateRole`) while it holds it, else a default from the roles it holds — the
 * highest-rated one the wire names (`Role`; `user` only when it is the only one), so a staff account shows `staff`
 * rather than nothing. The tier is the one chosen, else the account's donor tier (account-records/donor-tiers.ts),
 * else '' (no tier: the reference's value for "no override").
 */
export function chosenRoleOf(settings: AccountSettingsEntity, roles: readonly HeldRole[], tier: DonorTier | null): ChosenRole | null {
  const named = roles.filter((held) => (ROLES as readonly string[]).includes(held.role));
  // A chosen role the account no longer holds (revoked since) falls back to the default.
  const chosen = roles.some((held) => held.role === settings.chosenRole) ? settings.chosenRole : null;
  const role = chosen ?? (named.find((held) => held.role !== 'user') ?? named[0])?.role ?? null;
  return role === null ? null : { role, tier: settings.chosenTier ?? tier ?? '' };
}

export function toSettingsBody(parts: SettingsParts): V1AccountGetSettingsBody {
  const { account, settings } = parts;
  return {
    chosenRole: parts.chosenRole,
    connections: parts.connections,
    developerApps: parts.keys.map((key) => toDeveloperApp(key, parts.perKey.get(key.keyId))),
    email: settings.email,
    emailVerifiedAt: settings.emailVerifiedAt?.toISOString() ?? null,
    hidden: settings.hidden,
    images: parts.images,
    language: settings.language,
    privacy: account.privacy,
    sessions: parts.sessions.map(toSession),
    subscribed: settings.subscribed,
    vanity: account.siteVanity ?? '',
    vanityAnalytics: { clicks: settings.vanityClicks },
    countryOverrideCode: settings.countryOverrideCode,
    countryOverrideName: settings.countryOverrideName,
    analytics: toAnalytics(parts.total),
  };
}
