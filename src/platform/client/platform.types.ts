/**
 * Wire (raw) and domain (camelCase) shapes of the platform's public Web API, as listed in
 * /work/shared/spec/platform-api.md. The simulator builds Raw* objects and the client maps them to the camelCase
 * types, so one file pins the contract for both sides.
 */

// ---------- raw wire shapes ----------

export interface RawResolveVanityResponse {
  response: { steamid?: string; success: number; message?: string };
}

export interface RawPlayerSummary {
  steamid: string;
  communityvisibilitystate: number;
  profilestate: number;
  personaname: string;
  profileurl: string;
  avatar: string;
  avatarmedium: string;
  avatarfull: string;
  avatarhash: string;
  personastate: number;
  lastlogoff?: number;
  realname?: string;
  primaryclanid?: string;
  timecreated?: number;
  loccountrycode?: string;
  locstatecode?: string;
  loccityid?: number;
  commentpermission?: number;
}

export interface RawPlayerSummariesResponse {
  response: { players: RawPlayerSummary[] };
}

export interface RawPlayerBans {
  SteamId: string;
  CommunityBanned: boolean;
  VACBanned: boolean;
  NumberOfVACBans: number;
  DaysSinceLastBan: number;
  NumberOfGameBans: number;
  EconomyBan: string;
}

export interface RawPlayerBansResponse {
  players: RawPlayerBans[];
}

export interface RawFriend {
  steamid: string;
  relationship: string;
  friend_since: number;
}

/** A private list may also come back as an empty object instead of HTTP 401. */
export interface RawFriendListResponse {
  friendslist?: { friends: RawFriend[] };
}

export interface RawUserGroupListResponse {
  response: { success: boolean; groups?: { gid: string }[]; error?: string };
}

export interface RawBadge {
  badgeid: number;
  level: number;
  completion_time: number;
  xp: number;
  scarcity: number;
  appid?: number;
  communityitemid?: string;
  border_color?: number;
}

/** Empty `response` for unknown accounts. */
export interface RawBadgesResponse {
  response: {
    badges?: RawBadge[];
    player_xp?: number;
    player_level?: number;
    player_xp_needed_to_level_up?: number;
    player_xp_needed_current_level?: number;
  };
}

export interface RawOwnedGame {
  appid: number;
  name?: string;
  img_icon_url?: string;
  playtime_forever: number;
  playtime_2weeks?: number;
  rtime_last_played: number;
  playtime_windows_forever?: number;
  playtime_mac_forever?: number;
  playtime_linux_forever?: number;
  playtime_deck_forever?: number;
  playtime_disconnected?: number;
}

/** Private profiles answer `{response:{}}`. */
export interface RawOwnedGamesResponse {
  response: { game_count?: number; games?: RawOwnedGame[] };
}

export interface RawSteamLevelResponse {
  response: { player_level?: number };
}

export interface RawBadgeProgressResponse {
  response: { quests?: { questid: number; completed: boolean }[] };
}

export interface RawInventoryAsset {
  appid: number;
  contextid: string;
  assetid: string;
  classid: string;
  instanceid: string;
  amount: string;
}

export interface RawInventoryTag {
  category: string;
  internal_name: string;
  localized_category_name: string;
  localized_tag_name: string;
}

export interface RawInventoryDescription {
  appid: number;
  classid: string;
  instanceid: string;
  name: string;
  type: string;
  market_name: string;
  market_hash_name: string;
  market_fee_app?: number;
  marketable: number;
  tradable: number;
  commodity: number;
  icon_url: string;
  tags: RawInventoryTag[];
}

export interface RawInventoryResponse {
  assets?: RawInventoryAsset[];
  descriptions?: RawInventoryDescription[];
  total_inventory_count: number;
  more_items?: number;
  last_assetid?: string;
  success: number;
}

export interface RawPriceOverview {
  success: boolean;
  lowest_price?: string;
  volume?: string;
  median_price?: string;
}

export interface RawLocationCountry {
  countrycode: string;
  countryname: string;
  hasstates: number;
}

export interface RawLocationState {
  countrycode: string;
  statecode: string;
  statename: string;
}

export interface RawLocationCity {
  countrycode: string;
  statecode: string;
  cityid: number;
  cityname: string;
}

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
