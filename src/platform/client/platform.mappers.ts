import type {
  Badge,
  Friend,
  InventoryItem,
  LocationCity,
  LocationCountry,
  LocationState,
  OwnedGame,
  PlayerBans,
  PlayerSummary,
  RawBadge,
  RawFriend,
  RawInventoryAsset,
  RawInventoryDescription,
  RawLocationCity,
  RawLocationCountry,
  RawLocationState,
  RawOwnedGame,
  RawPlayerBans,
  RawPlayerSummary,
} from './platform.types';

/** Pure raw → camelCase mappers. Optional wire fields stay absent (not undefined) so results compare cleanly. */

function optional<T extends object, K extends string, V>(target: T, key: K, value: V | undefined): void {
  if (value !== undefined && value !== null) (target as Record<string, unknown>)[key] = value;
}

export function toPlayerSummary(r: RawPlayerSummary): PlayerSummary {
  const s: PlayerSummary = {
    steamId: r.steamid,
    communityVisibilityState: r.communityvisibilitystate,
    profileState: r.profilestate,
    personaName: r.personaname,
    profileUrl: r.profileurl,
    avatar: r.avatar,
    avatarMedium: r.avatarmedium,
    avatarFull: r.avatarfull,
    avatarHash: r.avatarhash,
    personaState: r.personastate,
  };
  optional(s, 'lastLogoff', r.lastlogoff);
  optional(s, 'realName', r.realname);
  optional(s, 'primaryClanId', r.primaryclanid);
  optional(s, 'timeCreated', r.timecreated);
  optional(s, 'locCountryCode', r.loccountrycode);
  optional(s, 'locStateCode', r.locstatecode);
  optional(s, 'locCityId', r.loccityid);
  optional(s, 'commentPermission', r.commentpermission);
  return s;
}

export function toPlayerBans(r: RawPlayerBans): PlayerBans {
  return {
    steamId: r.SteamId,
    communityBanned: r.CommunityBanned,
    vacBanned: r.VACBanned,
    numberOfVacBans: r.NumberOfVACBans,
    daysSinceLastBan: r.DaysSinceLastBan,
    numberOfGameBans: r.NumberOfGameBans,
    economyBan: r.EconomyBan,
  };
}

export function toFriend(r: RawFriend): Friend {
  return { steamId: r.steamid, relationship: r.relationship, friendSince: r.friend_since };
}

export function toBadge(r: RawBadge): Badge {
  const b: Badge = { badgeId: r.badgeid, level: r.level, completionTime: r.completion_time, xp: r.xp, scarcity: r.scarcity };
  optional(b, 'appId', r.appid);
  optional(b, 'communityItemId', r.communityitemid);
  optional(b, 'borderColor', r.border_color);
  return b;
}

export function toOwnedGame(r: RawOwnedGame): OwnedGame {
  const g: OwnedGame = { appId: r.appid, playtimeForever: r.playtime_forever, rtimeLastPlayed: r.rtime_last_played };
  optional(g, 'name', r.name);
  optional(g, 'imgIconUrl', r.img_icon_url);
  optional(g, 'playtime2Weeks', r.playtime_2weeks);
  return g;
}

export function toInventoryItem(a: RawInventoryAsset, d: RawInventoryDescription): InventoryItem {
  const item: InventoryItem = {
    assetId: a.assetid,
    classId: a.classid,
    instanceId: a.instanceid,
    amount: Number(a.amount),
    appId: a.appid,
    contextId: a.contextid,
    name: d.name,
    type: d.type,
    marketName: d.market_name,
    marketHashName: d.market_hash_name,
    marketable: d.marketable === 1,
    tradable: d.tradable === 1,
    commodity: d.commodity === 1,
    tags: (d.tags ?? []).map((t) => ({
      category: t.category,
      internalName: t.internal_name,
      localizedCategoryName: t.localized_category_name,
      localizedTagName: t.localized_tag_name,
    })),
  };
  optional(item, 'marketFeeApp', d.market_fee_app);
  return item;
}

export function toCountry(r: RawLocationCountry): LocationCountry {
  return { countryCode: r.countrycode, countryName: r.countryname, hasStates: Boolean(r.hasstates) };
}

export function toState(r: RawLocationState): LocationState {
  return { countryCode: r.countrycode, stateCode: r.statecode, stateName: r.statename };
}

export function toCity(r: RawLocationCity): LocationCity {
  return { countryCode: r.countrycode, stateCode: r.statecode, cityId: r.cityid, cityName: r.cityname };
}

/**
 * Market price string → minor units (cents). The last '.' or ',' followed by exactly two trailing digits is the
 * decimal separator ("$1,234.56", "1.234,56€"); every other separator groups thousands. Null if no digits.
 */
export function parsePrice(text: string | undefined): number | null {
  if (!text) return null;
  const cleaned = text.replace(/[^\d.,]/g, '');
  if (!/\d/.test(cleaned)) return null;
  const m = /^(.*?)[.,](\d{2})$/.exec(cleaned);
  const major = (m ? m[1] : cleaned).replace(/[.,]/g, '');
  return Number(major || '0') * 100 + (m ? Number(m[2]) : 0);
}

/** "1,234" → 1234. */
export function parseCount(text: string | undefined): number | null {
  if (!text) return null;
  const digits = text.replace(/\D/g, '');
  return digits ? Number(digits) : null;
}
