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

/** One listing row of the market search with `norender=1`: an item kind, its cheapest listing and its description. */
export interface RawMarketSearchResult {
  name: string;
  hash_name: string;
  sell_listings: number;
  /** Cents of the search's currency (USD). */
  sell_price: number;
  sell_price_text: string;
  sale_price_text?: string;
  app_icon: string;
  app_name: string;
  asset_description: {
    appid: number;
    classid: string;
    instanceid: string;
    background_color?: string;
    icon_url: string;
    tradable: number;
    name: string;
    name_color?: string;
    type: string;
    market_name: string;
    market_hash_name: string;
    commodity: number;
  };
}

/** `GET /market/search/render/?norender=1`: a page of the market's item kinds matching the search's filters. */
export interface RawMarketSearchResponse {
  success: boolean;
  start: number;
  pagesize: number;
  total_count: number;
  searchdata?: {
    query: string;
    search_descriptions: boolean;
    total_count: number;
    pagesize: number;
    prefix: string;
    class_prefix: string;
  };
  results?: RawMarketSearchResult[];
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
