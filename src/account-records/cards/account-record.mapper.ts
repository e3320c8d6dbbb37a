/** The fields every account record on the wire shares: the listings' cards (`LeaderboardAccount`) and the profile build on them. */
import { steamId64Of } from '../account.enums';
import { LeaderboardAccount } from '../dto/leaderboard-account.dto';
import { RoleRecord } from '../dto/profile-records.dto';
import { AccountRoleEntity } from '../entities/account-role.entity';
import { AccountEntity } from '../entities/account.entity';
import { BadgeCosts, NO_BADGE_COSTS } from '../../pricing/badge-costs';

export function toRoles(roles: AccountRoleEntity[]): RoleRecord[] {
  return roles.map((role) => ({ role: role.role, rating: role.rating, extras: role.extras }));
}

/** The columns an account record is built from: a listing reads only these (LeaderboardAccountsService). */
export type CardAccount = Pick<
  AccountEntity,
  | 'accountId'
  | 'name'
  | 'avatar'
  | 'animatedAvatar'
  | 'avatarFrame'
  | 'background'
  | 'miniBackground'
  | 'privacy'
  | 'apps'
  | 'badges'
  | 'foilBadges'
  | 'normalBadges'
  | 'friends'
  | 'level'
  | 'xp'
  | 'playtime'
  | 'awardsGiven'
  | 'awardsReceived'
  | 'pointsGiven'
  | 'pointsReceived'
  | 'donated'
  | 'bans'
  | 'gameBans'
  | 'vacBans'
  | 'siteScore'
  | 'economyBan'
  | 'siteVanity'
  | 'platformVanity'
  | 'countryName'
  | 'countryCode'
  | 'stateName'
  | 'cityName'
  | 'region'
>;

type AccountRecord = Omit<LeaderboardAccount, 'createdAt'>;

/**
 * The counters and cosmetics every account record carries, then the location objects present only when known. One
 * literal and three assignments rather than spreads: a 100-row listing builds a hundred of these per request.
 */
export function accountRecord(account: CardAccount, roles: RoleRecord[], costs: BadgeCosts = NO_BADGE_COSTS): AccountRecord {
  const record: AccountRecord = {
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
    appCost: costs.appCost,
    foilBadgeCost: costs.foilBadgeCost,
    normalBadgeCost: costs.normalBadgeCost,
    economyBan: account.economyBan,
    steamSetsVanity: account.siteVanity ?? '',
    steamVanity: account.platformVanity ?? '',
    // The profile's own images are listed by AccountProfileService; rows in lists do not load them (see docs).
    images: [],
    roles,
  };
  if (account.countryName)
    record.country = account.countryCode ? { name: account.countryName, code: account.countryCode } : { name: account.countryName };
  if (account.stateName) record.state = { name: account.stateName };
  if (account.cityName) record.city = { name: account.cityName };
  if (account.region) record.region = { name: account.region };
  return record;
}

/**
 * `LeaderboardAccount`, from a card row: its `createdAt` is the platform's creation date, the epoch where the platform
 * does not tell (card-values.ts, UNKNOWN_CREATED_AT); its roles come ordered and shaped as RoleRecords (null: none).
 */
export function toLeaderboardAccount(account: CardAccount & { createdAt: Date; roles: RoleRecord[] | null }): LeaderboardAccount {
  const card = accountRecord(account, account.roles ?? []) as LeaderboardAccount;
  card.createdAt = account.createdAt.toISOString();
  return card;
}
