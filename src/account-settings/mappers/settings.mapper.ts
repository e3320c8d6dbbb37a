import { ApiKeyService } from '../../auth/api-key.service';
import { UsageAnalytics } from '../../auth/api-key-usage.service';
import { ApiKeyEntity } from '../../auth/entities/api-key.entity';
import { UserSessionEntity } from '../../auth/entities/user-session.entity';
import { DeveloperApp, DeveloperAppAnalytics, Session, V1AccountGetSettingsBody } from '../dto/account-settings.dto';
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
}

export function toSettingsBody(parts: SettingsParts): V1AccountGetSettingsBody {
  const { account, settings } = parts;
  return {
    chosenRole: settings.chosenRole ? { role: settings.chosenRole, tier: settings.chosenTier ?? 'tier_1' } : null,
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
