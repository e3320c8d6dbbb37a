import { steamId64Of } from '../account.enums';
import { V1AccountGetInfoResponseBody } from '../dto/account-profile.dto';
import { LeaderboardAccount } from '../dto/leaderboard-account.dto';
import { RoleRecord } from '../dto/profile-records.dto';
import { AccountRoleEntity } from '../entities/account-role.entity';
import { AccountEntity } from '../entities/account.entity';
import { BadgeCosts, NO_BADGE_COSTS } from '../../pricing/badge-costs.service';

export function toRoles(roles: AccountRoleEntity[]): RoleRecord[] {
  return roles.map((role) => ({ role: role.role, rating: role.rating, extras: role.extras }));
}

/** The optional location objects, present only when known. */
function location(account: AccountEntity) {
  return {
    ...(account.countryName
      ? { country: { name: account.countryName, ...(account.countryCode ? { code: account.countryCode } : {}) } }
      : {}),
    ...(account.stateName ? { state: { name: account.stateName } } : {}),
    ...(account.cityName ? { city: { name: account.cityName } } : {}),
  };
}

/** The counters and cosmetics every account record carries. */
function accountRecord(account: AccountEntity, roles: AccountRoleEntity[], costs: BadgeCosts = NO_BADGE_COSTS) {
  return {
    steamId: steamId64Of(account.accountId),
    name: account.name,
    avatar: account.avatar,
    animatedAvatar: account.animatedAvatar,
    avatarFrame: account.avatarFrame,
    background: account.background,
    miniBackground: account.miniBackground,
    privacy: account.privacy,
    apps: account.apps,
    badges: account.badges,
    foilBadges: account.foilBadges,
    normalBadges: account.normalBadges,
    friends: account.friends,
    level: account.level,
    xp: account.xp,
    playtime: account.playtime,
    awardsGiven: account.awardsGiven,
    awardsReceived: account.awardsReceived,
    pointsGiven: account.pointsGiven,
    pointsReceived: account.pointsReceived,
    donated: account.donated,
    bans: account.bans,
    gameBans: account.gameBans,
    vacBans: account.vacBans,
    steamSetsScore: account.siteScore,
    // Deprecated cost fields, from the market prices (src/pricing); account rows in lists leave them 0, since
    // pricing every row's badges would make each list read O(rows × badges).
    ...costs,
    economyBan: account.economyBan,
    steamSetsVanity: account.siteVanity ?? '',
    steamVanity: account.platformVanity ?? '',
    // The profile's own images are listed by AccountProfileService; rows in lists do not load them (see docs).
    images: [],
    roles: toRoles(roles),
    ...location(account),
  };
}

/** `LeaderboardAccount`: its `createdAt` is not nullable, so an unknown creation date falls back to when it was added. */
export function toLeaderboardAccount(account: AccountEntity, roles: AccountRoleEntity[]): LeaderboardAccount {
  return { ...accountRecord(account, roles), createdAt: (account.platformCreatedAt ?? account.addedAt).toISOString() };
}

/** The wire profile of an account. Ranks stay null until leaderboards are computed. */
export function toProfile(account: AccountEntity, roles: AccountRoleEntity[], costs?: BadgeCosts): V1AccountGetInfoResponseBody {
  return {
    ...accountRecord(account, roles, costs),
    accountId: account.accountId,
    theme: account.theme,
    appPrivacy: account.appPrivacy,
    friendPrivacy: account.friendPrivacy,
    communityBan: account.communityBan,
    lastBanDate: account.lastBanDate?.toISOString() ?? null,
    createdAt: account.platformCreatedAt?.toISOString() ?? null,
    updatedAt: account.updatedAt?.toISOString() ?? null,
    nextAllowedTime: account.nextAllowedTime.toISOString(),
    lastQueueStatus: account.lastQueueStatus,
    shortlinkDomain: null,
    connections: [],
    currentRanks: null,
    currentBestRanks: null,
  };
}
