import { HttpError, htmlError, json, type SimResponse } from './http-response';
import { appIdsFilter, boolParam, intParam, required, steamIdList, steamIdParam } from './params';
import type { Universe } from '../universe/universe';
import type {
  RawBadge,
  RawBadgeProgressResponse,
  RawBadgesResponse,
  RawFriendListResponse,
  RawOwnedGame,
  RawOwnedGamesResponse,
  RawPlayerBans,
  RawPlayerBansResponse,
  RawPlayerSummariesResponse,
  RawPlayerSummary,
  RawResolveVanityResponse,
  RawSteamLevelResponse,
  RawUserGroupListResponse,
} from '../../client/platform.types';

/** Web API method handlers: (universe, tick, query) → response in the exact wire format of platform-api.md. */
export type WebApiHandler = (u: Universe, tick: number, q: URLSearchParams) => SimResponse;

/** Steamids that map to no account in 1..N behave like the platform's unknown ids. */
function known(u: Universe, steamId: string): number | null {
  return u.accountIdOf(steamId);
}

const resolveVanity: WebApiHandler = (u, _tick, q) => {
  const name = required(q, 'vanityurl');
  const urlType = intParam(q, 'url_type', 1, 1, 3);
  const accountId = urlType === 1 ? u.resolveVanity(name) : null;
  const body: RawResolveVanityResponse =
    accountId === null ? { response: { success: 42, message: 'No match' } } : { response: { steamid: u.steamIdOf(accountId), success: 1 } };
  return json(body);
};

const playerSummaries: WebApiHandler = (u, tick, q) => {
  const players: RawPlayerSummary[] = [];
  for (const steamId of steamIdList(q, 'steamids', 100)) {
    const accountId = known(u, steamId);
    if (accountId === null) continue;
    const s = u.summary(accountId, tick);
    const raw: RawPlayerSummary = {
      steamid: s.steamId,
      communityvisibilitystate: s.communityVisibilityState,
      profilestate: s.profileState,
      personaname: s.personaName,
      profileurl: s.profileUrl,
      avatar: s.avatar,
      avatarmedium: s.avatarMedium,
      avatarfull: s.avatarFull,
      avatarhash: s.avatarHash,
      personastate: s.personaState,
    };
    if (s.lastLogoff !== undefined) raw.lastlogoff = s.lastLogoff;
    if (s.realName !== undefined) raw.realname = s.realName;
    if (s.primaryClanId !== undefined) raw.primaryclanid = s.primaryClanId;
    if (s.timeCreated !== undefined) raw.timecreated = s.timeCreated;
    if (s.locCountryCode !== undefined) raw.loccountrycode = s.locCountryCode;
    if (s.locStateCode !== undefined) raw.locstatecode = s.locStateCode;
    if (s.locCityId !== undefined) raw.loccityid = s.locCityId;
    if (s.commentPermission !== undefined) raw.commentpermission = s.commentPermission;
    players.push(raw);
  }
  const body: RawPlayerSummariesResponse = { response: { players } };
  return json(body);
};

const playerBans: WebApiHandler = (u, tick, q) => {
  const players: RawPlayerBans[] = [];
  for (const steamId of steamIdList(q, 'steamids', 100)) {
    const accountId = known(u, steamId);
    if (accountId === null) continue;
    const b = u.bans(accountId, tick);
    players.push({
      SteamId: b.steamId,
      CommunityBanned: b.communityBanned,
      VACBanned: b.vacBanned,
      NumberOfVACBans: b.numberOfVacBans,
      DaysSinceLastBan: b.daysSinceLastBan,
      NumberOfGameBans: b.numberOfGameBans,
      EconomyBan: b.economyBan,
    });
  }
  const body: RawPlayerBansResponse = { players };
  return json(body);
};

/** Private (and unknown) friend lists answer 401, as the platform does. */
const friendList: WebApiHandler = (u, tick, q) => {
  const accountId = known(u, steamIdParam(q));
  const relationship = q.get('relationship') ?? 'all';
  if (relationship !== 'all' && relationship !== 'friend') throw new HttpError(400, "Parameter 'relationship' must be all or friend");
  if (accountId === null || u.isPrivate(accountId)) return htmlError(401, 'This profile is private.');
  const friends = u
    .friends(accountId, tick)
    .map((f) => ({ steamid: f.steamId, relationship: f.relationship, friend_since: f.friendSince }));
  const body: RawFriendListResponse = { friendslist: { friends } };
  return json(body);
};

const userGroupList: WebApiHandler = (u, _tick, q) => {
  const accountId = known(u, steamIdParam(q));
  const body: RawUserGroupListResponse =
    accountId === null || u.isPrivate(accountId)
      ? { response: { success: false, error: 'Private profile' } }
      : { response: { success: true, groups: u.groups(accountId).map((gid) => ({ gid })) } };
  return json(body);
};

/** Badges stay visible on private profiles (as on the platform); unknown ids get an empty response. */
const badges: WebApiHandler = (u, tick, q) => {
  const accountId = known(u, steamIdParam(q));
  if (accountId === null) return json({ response: {} } satisfies RawBadgesResponse);
  const b = u.badges(accountId, tick);
  const raw = b.badges.map((x): RawBadge => {
    const r: RawBadge = { badgeid: x.badgeId, level: x.level, completion_time: x.completionTime, xp: x.xp, scarcity: x.scarcity };
    if (x.appId !== undefined) r.appid = x.appId;
    if (x.communityItemId !== undefined) r.communityitemid = x.communityItemId;
    if (x.borderColor !== undefined) r.border_color = x.borderColor;
    return r;
  });
  const body: RawBadgesResponse = {
    response: {
      badges: raw,
      player_xp: b.playerXp,
      player_level: b.playerLevel,
      player_xp_needed_to_level_up: b.playerXpNeededToLevelUp,
      player_xp_needed_current_level: b.playerXpNeededCurrentLevel,
    },
  };
  return json(body);
};

/** Private profiles answer `{response:{}}`; free games appear only with include_played_free_games=1 once played. */
const ownedGames: WebApiHandler = (u, tick, q) => {
  const accountId = known(u, steamIdParam(q));
  const appInfo = boolParam(q, 'include_appinfo');
  const freeGames = boolParam(q, 'include_played_free_games');
  const filter = appIdsFilter(q);
  if (accountId === null || u.isPrivate(accountId)) return json({ response: {} } satisfies RawOwnedGamesResponse);
  const games: RawOwnedGame[] = [];
  for (const g of u.ownedGames(accountId, tick)) {
    if (g.free && !(freeGames && g.playtimeForever > 0)) continue;
    if (filter && !filter.has(g.appId)) continue;
    const raw: RawOwnedGame = { appid: g.appId, playtime_forever: g.playtimeForever, rtime_last_played: g.rtimeLastPlayed };
    if (appInfo) {
      raw.name = g.name;
      raw.img_icon_url = g.iconHash;
    }
    if (g.playtime2Weeks > 0) raw.playtime_2weeks = g.playtime2Weeks;
    raw.playtime_windows_forever = g.playtimeForever;
    raw.playtime_mac_forever = 0;
    raw.playtime_linux_forever = 0;
    raw.playtime_deck_forever = 0;
    raw.playtime_disconnected = 0;
    games.push(raw);
  }
  const body: RawOwnedGamesResponse = { response: { game_count: games.length, games } };
  return json(body);
};

const steamLevel: WebApiHandler = (u, tick, q) => {
  const accountId = known(u, steamIdParam(q));
  const body: RawSteamLevelResponse = accountId === null ? { response: {} } : { response: { player_level: u.level(accountId, tick) } };
  return json(body);
};

const badgeProgress: WebApiHandler = (u, _tick, q) => {
  const accountId = known(u, steamIdParam(q));
  const badgeId = intParam(q, 'badgeid', 2, 1, 2 ** 31 - 1);
  if (accountId === null) return json({ response: {} } satisfies RawBadgeProgressResponse);
  const quests = u.badgeProgress(accountId, badgeId).map((x) => ({ questid: x.questId, completed: x.completed }));
  const body: RawBadgeProgressResponse = { response: { quests } };
  return json(body);
};

/** Keyed by path without trailing slash; versions are also accepted zero-padded (v0002). */
export const WEB_API_ROUTES: Record<string, WebApiHandler> = {
  '/ISteamUser/ResolveVanityURL/v1': resolveVanity,
  '/ISteamUser/GetPlayerSummaries/v2': playerSummaries,
  '/ISteamUser/GetPlayerBans/v1': playerBans,
  '/ISteamUser/GetFriendList/v1': friendList,
  '/ISteamUser/GetUserGroupList/v1': userGroupList,
  '/IPlayerService/GetBadges/v1': badges,
  '/IPlayerService/GetOwnedGames/v1': ownedGames,
  '/IPlayerService/GetSteamLevel/v1': steamLevel,
  '/IPlayerService/GetCommunityBadgeProgress/v1': badgeProgress,
};
