/**
 * Raw wire shapes of the platform's public Web API and community endpoints, exactly as the platform sends them.
 * The simulator builds these objects; the client parses them.
 */

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
