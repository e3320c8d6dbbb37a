/**
 * Wire (raw) and domain (camelCase) shapes of the platform's public Web API and community pages. The simulator builds Raw* objects and the client maps them to the camelCase
 * types, so these two files pin the contract for both sides.
 */

export * from './platform-raw.types';

// ---------- camelCase domain shapes returned by PlatformClient ----------

export type Private = { visibility: 'private' };

export interface PlayerSummary {
  steamId: string;
  communityVisibilityState: number;
  profileState: number;
  personaName: string;
  profileUrl: string;
  avatar: string;
  avatarMedium: string;
  avatarFull: string;
  avatarHash: string;
  personaState: number;
  lastLogoff?: number;
  realName?: string;
  primaryClanId?: string;
  timeCreated?: number;
  locCountryCode?: string;
  locStateCode?: string;
  locCityId?: number;
  commentPermission?: number;
}

export interface PlayerBans {
  steamId: string;
  communityBanned: boolean;
  vacBanned: boolean;
  numberOfVacBans: number;
  daysSinceLastBan: number;
  numberOfGameBans: number;
  economyBan: string;
}

export interface Friend {
  steamId: string;
  relationship: string;
  /** Unix seconds. */
  friendSince: number;
}

export type FriendListResult = { visibility: 'public'; friends: Friend[] } | Private;

export type GroupListResult = { visibility: 'public'; groups: string[] } | Private;

export interface Badge {
  badgeId: number;
  level: number;
  /** Unix seconds. */
  completionTime: number;
  xp: number;
  scarcity: number;
  appId?: number;
  communityItemId?: string;
  borderColor?: number;
}

export interface PlayerBadges {
  badges: Badge[];
  playerXp: number;
  playerLevel: number;
  playerXpNeededToLevelUp: number;
  playerXpNeededCurrentLevel: number;
}

export interface OwnedGame {
  appId: number;
  name?: string;
  imgIconUrl?: string;
  /** Minutes. */
  playtimeForever: number;
  playtime2Weeks?: number;
  /** Unix seconds, 0 if never played. */
  rtimeLastPlayed: number;
}

export type OwnedGamesResult = { visibility: 'public'; gameCount: number; games: OwnedGame[] } | Private;

export interface OwnedGamesOptions {
  includeAppInfo?: boolean;
  includePlayedFreeGames?: boolean;
  appIds?: number[];
}

export interface BadgeQuest {
  questId: number;
  completed: boolean;
}

export interface InventoryTag {
  category: string;
  internalName: string;
  localizedCategoryName: string;
  localizedTagName: string;
}

/** One asset joined with its description. */
export interface InventoryItem {
  assetId: string;
  classId: string;
  instanceId: string;
  amount: number;
  appId: number;
  contextId: string;
  name: string;
  type: string;
  marketName: string;
  marketHashName: string;
  marketFeeApp?: number;
  marketable: boolean;
  tradable: boolean;
  commodity: boolean;
  tags: InventoryTag[];
}

export type InventoryResult = { visibility: 'public'; totalCount: number; items: InventoryItem[] } | Private;

/** Prices in the currency's minor unit (cents); null when the platform omits the field. */
export interface MarketPrice {
  lowestPrice: number | null;
  medianPrice: number | null;
  volume: number | null;
}

/**
 * An app's trading-card set as the market lists it (one side: normal or foil cards): the set's size and its cards'
 * market hash names (`"{appId}-{Card Name}"`), in the market's name order.
 */
export interface AppCardSet {
  appId: number;
  /** The market's `total_count`: cards in the set. */
  cards: number;
  hashNames: string[];
}

export interface LocationCountry {
  countryCode: string;
  countryName: string;
  hasStates: boolean;
}

export interface LocationState {
  countryCode: string;
  stateCode: string;
  stateName: string;
}

export interface LocationCity {
  countryCode: string;
  stateCode: string;
  cityId: number;
  cityName: string;
}

/** One page of a group's community members list (XML): its details, and members ranked with the owner first. */
export interface GroupMembersPage {
  visibility: 'public';
  /** The 64-bit group id, as a decimal string. */
  groupId64: string;
  name: string;
  /** The group's custom URL name (`groupURL`). */
  vanity: string;
  headline: string;
  summary: string;
  avatarIcon: string;
  avatarMedium: string;
  avatarFull: string;
  memberCount: number;
  totalPages: number;
  currentPage: number;
  /** 64-bit account ids of this page's members, in the platform's order. */
  members: string[];
}

/** `hidden`: the group keeps its members private (HTTP 403); `missing`: no such group (HTTP 404). */
export type GroupMembersResult = GroupMembersPage | { visibility: 'hidden' } | { visibility: 'missing' };
