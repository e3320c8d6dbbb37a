import type { CallBudget, MarketCallPace } from './call-budget';
import {
  parseCount,
  parsePrice,
  toBadge,
  toCity,
  toCountry,
  toFriend,
  toInventoryItem,
  toOwnedGame,
  toPlayerBans,
  toPlayerSummary,
  toState,
} from './platform.mappers';
import { PlatformHttpError, PlatformUnavailableError } from './platform.errors';
import { gidOf, groupId64Of } from './group-ids';
import { parseMembersListXml } from './group-xml';
import { parseBadgePage, type BadgePage } from './badge-page';
import { PlatformHttp, type HttpOutcome, type QueryValue } from './platform-http';
import type {
  AppCardSet,
  BadgeQuest,
  FriendListResult,
  GroupListResult,
  GroupMembersResult,
  InventoryItem,
  InventoryResult,
  LocationCity,
  LocationCountry,
  LocationState,
  MarketPrice,
  OwnedGamesOptions,
  OwnedGamesResult,
  PlayerBadges,
  PlayerBans,
  PlayerSummary,
  RawBadgeProgressResponse,
  RawBadgesResponse,
  RawFriendListResponse,
  RawInventoryDescription,
  RawInventoryResponse,
  RawLocationCity,
  RawLocationCountry,
  RawLocationState,
  RawMarketSearchResponse,
  RawOwnedGamesResponse,
  RawPlayerBansResponse,
  RawPlayerSummariesResponse,
  RawPriceOverview,
  RawResolveVanityResponse,
  RawSteamLevelResponse,
  RawUserGroupListResponse,
} from './platform.types';

export { PlatformBudgetExceededError, PlatformHttpError, PlatformMarketBusyError, PlatformUnavailableError } from './platform.errors';

export interface PlatformClientOptions {
  /** Web API base, e.g. https://api.steampowered.com (or the simulator). */
  apiUrl: string;
  /** Community base, e.g. https://steamcommunity.com (or the simulator). */
  communityUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  retryBaseMs: number;
  budget?: CallBudget | null;
  /** The market's own, much stricter limit, shared by every process (market price calls only). */
  marketPace?: MarketCallPace | null;
}

const BATCH = 100;
const BATCH_CONCURRENCY = 4;
const DEFAULT_INVENTORY_PAGE = 2000;
/** Kinds per page of the market search (its largest `count`), and how deep a card set is read at most. */
const MARKET_SEARCH_PAGE = 100;
const MAX_MARKET_SEARCH = 500;

/**
 * Typed client for the platform's Web API and community endpoints (platform-api.md). Results are camelCase;
 * private data comes back as `{ visibility: 'private' }` instead of an error.
 */
export class PlatformClient {
  private readonly http: PlatformHttp;

  constructor(private readonly opts: PlatformClientOptions) {
    this.http = new PlatformHttp(opts);
  }

  /** The steamid for a profile vanity name, or null when nothing matches (success 42). */
  async resolveVanity(name: string): Promise<string | null> {
    const body = await this.api<RawResolveVanityResponse>('/ISteamUser/ResolveVanityURL/v1/', { vanityurl: name, url_type: 1 });
    return body.response?.success === 1 && body.response.steamid ? body.response.steamid : null;
  }

  /** Summaries of the known ids (unknown ones are absent), fetched in batches of 100. */
  async getPlayerSummaries(steamIds: string[]): Promise<PlayerSummary[]> {
    const batches = await this.batched(steamIds, (ids) =>
      this.api<RawPlayerSummariesResponse>('/ISteamUser/GetPlayerSummaries/v2/', { steamids: ids.join(',') }),
    );
    return batches.flatMap((b) => (b.response?.players ?? []).map(toPlayerSummary));
  }

  async getPlayerBans(steamIds: string[]): Promise<PlayerBans[]> {
    const batches = await this.batched(steamIds, (ids) =>
      this.api<RawPlayerBansResponse>('/ISteamUser/GetPlayerBans/v1/', { steamids: ids.join(',') }),
    );
    return batches.flatMap((b) => (b.players ?? []).map(toPlayerBans));
  }

  /** A private list answers HTTP 401 or an empty object; both map to `private`. */
  async getFriendList(steamId: string): Promise<FriendListResult> {
    const out = await this.apiOutcome('/ISteamUser/GetFriendList/v1/', { steamid: steamId, relationship: 'friend' }, [401]);
    const body = out.body as RawFriendListResponse | null;
    if (out.status === 401 || !body?.friendslist) return { visibility: 'private' };
    return { visibility: 'public', friends: (body.friendslist.friends ?? []).map(toFriend) };
  }

  /** The account's groups as 32-bit gids (decimal strings; a 64-bit id is folded to its gid, anything else dropped). */
  async getUserGroupList(steamId: string): Promise<GroupListResult> {
    const body = await this.api<RawUserGroupListResponse>('/ISteamUser/GetUserGroupList/v1/', { steamid: steamId });
    if (!body.response?.success) return { visibility: 'private' };
    const gids = (body.response.groups ?? []).map((g) => gidOf(String(g.gid)));
    return { visibility: 'public', groups: gids.filter((gid): gid is number => gid !== null).map(String) };
  }

  /**
   * One page (1-based, 1,000 members each) of a group's community members list: its details and members, the
   * owner first. HTTP 403 → `hidden`, 404 → `missing`; a body that is not a members list → PlatformUnavailableError.
   */
  async getGroupMembers(gid: number, page = 1): Promise<GroupMembersResult> {
    const path = `/gid/${groupId64Of(gid)}/memberslistxml/`;
    let out: HttpOutcome;
    try {
      out = await this.http.get(this.opts.communityUrl, path, { xml: 1, p: page }, false, { format: 'text' });
    } catch (error) {
      if (error instanceof PlatformHttpError && error.status === 404) return { visibility: 'missing' };
      throw error;
    }
    if (out.status === 403) return { visibility: 'hidden' };
    const parsed = parseMembersListXml(String(this.expectOk(out, path)));
    if (!parsed) throw new PlatformUnavailableError(`GET ${path}`, 1, 200, 'the answer is not a members list');
    return { visibility: 'public', ...parsed };
  }

  /** Badges and level; an empty response (unknown account) reads as no badges at level 0. */
  async getBadges(steamId: string): Promise<PlayerBadges> {
    const r = (await this.api<RawBadgesResponse>('/IPlayerService/GetBadges/v1/', { steamid: steamId })).response ?? {};
    return {
      badges: (r.badges ?? []).map(toBadge),
      playerXp: r.player_xp ?? 0,
      playerLevel: r.player_level ?? 0,
      playerXpNeededToLevelUp: r.player_xp_needed_to_level_up ?? 0,
      playerXpNeededCurrentLevel: r.player_xp_needed_current_level ?? 0,
    };
  }

  /** `{response:{}}` (no game_count) means the game details are private. */
  async getOwnedGames(steamId: string, options: OwnedGamesOptions = {}): Promise<OwnedGamesResult> {
    const query: Record<string, QueryValue> = {
      steamid: steamId,
      include_appinfo: options.includeAppInfo ?? true,
      include_played_free_games: options.includePlayedFreeGames ?? false,
    };
    (options.appIds ?? []).forEach((appId, i) => (query[`appids_filter[${i}]`] = appId));
    const r = (await this.api<RawOwnedGamesResponse>('/IPlayerService/GetOwnedGames/v1/', query)).response ?? {};
    if (r.game_count === undefined) return { visibility: 'private' };
    return { visibility: 'public', gameCount: r.game_count, games: (r.games ?? []).map(toOwnedGame) };
  }

  /** Null for unknown accounts. */
  async getSteamLevel(steamId: string): Promise<number | null> {
    const body = await this.api<RawSteamLevelResponse>('/IPlayerService/GetSteamLevel/v1/', { steamid: steamId });
    return body.response?.player_level ?? null;
  }

  async getCommunityBadgeProgress(steamId: string, badgeId = 2): Promise<BadgeQuest[]> {
    const body = await this.api<RawBadgeProgressResponse>('/IPlayerService/GetCommunityBadgeProgress/v1/', {
      steamid: steamId,
      badgeid: badgeId,
    });
    return (body.response?.quests ?? []).map((q) => ({ questId: q.questid, completed: q.completed }));
  }

  /** The whole community inventory (app 753, context 6), following pages to the end; HTTP 403 → private. */
  async getInventory(steamId: string, pageSize = DEFAULT_INVENTORY_PAGE): Promise<InventoryResult> {
    const path = `/inventory/${encodeURIComponent(steamId)}/753/6`;
    const items: InventoryItem[] = [];
    const descriptions = new Map<string, RawInventoryDescription>();
    let start: string | undefined;
    let total = 0;
    for (;;) {
      const out = await this.http.get(this.opts.communityUrl, path, { l: 'english', count: pageSize, start_assetid: start }, false);
      if (out.status === 403) return { visibility: 'private' };
      const page = this.expectOk(out, path) as RawInventoryResponse | null;
      if (!page || page.success !== 1) throw new PlatformUnavailableError(`GET ${path}`, 1, 200, 'inventory answered without success');
      total = page.total_inventory_count ?? 0;
      for (const d of page.descriptions ?? []) descriptions.set(`${d.classid}_${d.instanceid}`, d);
      for (const a of page.assets ?? []) {
        const d = descriptions.get(`${a.classid}_${a.instanceid}`);
        if (!d) throw new PlatformUnavailableError(`GET ${path}`, 1, 200, `asset ${a.assetid} has no description`);
        items.push(toInventoryItem(a, d));
      }
      if (!page.more_items) break;
      // A page that does not advance would loop forever.
      if (!page.last_assetid || page.last_assetid === start)
        throw new PlatformUnavailableError(`GET ${path}`, 1, 200, 'inventory paging did not advance');
      start = page.last_assetid;
    }
    return { visibility: 'public', totalCount: total, items };
  }

  /**
   * Market price overview in minor units (cents); null when the market does not know the item (not marketable).
   * Paced by the shared MarketCallPace: each attempt waits for its slot. An aborted `signal` abandons the call,
   * its wait and its retries at once, rejecting with the signal's reason.
   */
  async getMarketPrice(marketHashName: string, currency = 1, signal?: AbortSignal): Promise<MarketPrice | null> {
    const path = '/market/priceoverview/';
    const query = { appid: 753, currency, market_hash_name: marketHashName };
    const out = await this.http.get(this.opts.communityUrl, path, query, false, { paced: true, signal });
    const body = this.expectOk(out, path) as RawPriceOverview | null;
    if (!body?.success) return null;
    return { lowestPrice: parsePrice(body.lowest_price), medianPrice: parsePrice(body.median_price), volume: parseCount(body.volume) };
  }

  /**
   * An app's set of trading cards (normal ones, or foil with `foil`) as the community market lists them: its search
   * (`/market/search/render/?norender=1`) filtered to community items (app 753) of the app's game tag
   * (`tag_app_<appId>`), the trading-card item class and the card border, 100 kinds a page (sets have 5–15 cards: one
   * page, one call). The platform's Web API publishes no set list; this is the catalogue the market keeps. A market
   * call: paced by the shared MarketCallPace like the price calls. An app without cards has an empty set.
   */
  async getAppCardSet(appId: number, foil = false, signal?: AbortSignal): Promise<AppCardSet> {
    const path = '/market/search/render/';
    const hashNames: string[] = [];
    let total = 0;
    for (let start = 0; ; start += MARKET_SEARCH_PAGE) {
      const query = {
        norender: 1,
        query: '',
        start,
        count: MARKET_SEARCH_PAGE,
        search_descriptions: 0,
        sort_column: 'name',
        sort_dir: 'asc',
        appid: 753,
        'category_753_Game[]': `tag_app_${appId}`,
        'category_753_item_class[]': 'tag_item_class_2',
        'category_753_cardborder[]': `tag_cardborder_${foil ? 1 : 0}`,
      };
      const out = await this.http.get(this.opts.communityUrl, path, query, false, { paced: true, signal });
      const page = this.expectOk(out, path) as RawMarketSearchResponse | null;
      if (!page?.success || typeof page.total_count !== 'number')
        throw new PlatformUnavailableError(`GET ${path}`, 1, 200, 'the market search answered without success');
      total = page.total_count;
      const results = page.results ?? [];
      for (const result of results) hashNames.push(result.hash_name);
      // A page short of its size, or the whole set read: done (a page that adds nothing would loop forever).
      if (!results.length || hashNames.length >= total || start + MARKET_SEARCH_PAGE >= MAX_MARKET_SEARCH) break;
    }
    return { appId, cards: total, hashNames };
  }

  /**
   * A badge as a profile's badge page shows it, at the level the profile holds: a game badge's gamecards page
   * (`/profiles/{steamid}/gamecards/{appid}/`, `border=1` for the foil one) or a special badge's
   * (`/profiles/{steamid}/badges/{badgeid}/`). The Web API names no badge and has no image of one; these community
   * pages do (HTML, parseBadgePage). Paced like the market calls (the community site limits scraping alike) and taking
   * nothing from the daily Web API budget. An unknown account or app is a PlatformHttpError (404).
   */
  async getBadgePage(
    steamId: string,
    badge: { appId: number; foil: boolean } | { badgeId: number },
    signal?: AbortSignal,
  ): Promise<BadgePage> {
    const path = 'appId' in badge ? `/profiles/${steamId}/gamecards/${badge.appId}/` : `/profiles/${steamId}/badges/${badge.badgeId}/`;
    const query = 'appId' in badge && badge.foil ? { border: 1 } : {};
    const out = await this.http.get(this.opts.communityUrl, path, query, false, { paced: true, signal, format: 'html' });
    const page = parseBadgePage(String(this.expectOk(out, path)));
    if (!page) throw new PlatformUnavailableError(`GET ${path}`, 1, 200, 'the answer is not a badge page');
    return page;
  }

  /** Countries; states of a country; cities of a state. */
  queryLocations(): Promise<LocationCountry[]>;
  queryLocations(countryCode: string): Promise<LocationState[]>;
  queryLocations(countryCode: string, stateCode: string): Promise<LocationCity[]>;
  async queryLocations(countryCode?: string, stateCode?: string): Promise<LocationCountry[] | LocationState[] | LocationCity[]> {
    const segments = [countryCode, stateCode].filter((s): s is string => !!s).map(encodeURIComponent);
    const path = ['/actions/QueryLocations', ...segments].join('/');
    const rows = (this.expectOk(await this.http.get(this.opts.communityUrl, path, {}, false), path) ?? []) as unknown[];
    if (!countryCode) return (rows as RawLocationCountry[]).map(toCountry);
    if (!stateCode) return (rows as RawLocationState[]).map(toState);
    return (rows as RawLocationCity[]).map(toCity);
  }

  // ---------- plumbing ----------

  /** A Web API call that must answer 200. */
  private async api<T>(path: string, query: Record<string, QueryValue>): Promise<T> {
    const out = await this.http.get(this.opts.apiUrl, path, query, true);
    return (this.expectOk(out, path) ?? {}) as T;
  }

  /** A Web API call where some of 401/403 carry meaning for the caller. */
  private async apiOutcome(path: string, query: Record<string, QueryValue>, allowed: number[]): Promise<HttpOutcome> {
    const out = await this.http.get(this.opts.apiUrl, path, query, true);
    if (out.status !== 200 && !allowed.includes(out.status)) throw new PlatformHttpError(out.status, `GET ${path}`);
    return out;
  }

  private expectOk(out: HttpOutcome, path: string): unknown {
    if (out.status !== 200) throw new PlatformHttpError(out.status, `GET ${path}`);
    return out.body;
  }

  /** De-duplicates ids, splits them into batches of 100 and runs a few batches at a time, keeping order. */
  private async batched<T>(steamIds: string[], call: (ids: string[]) => Promise<T>): Promise<T[]> {
    const ids = [...new Set(steamIds)];
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += BATCH) batches.push(ids.slice(i, i + BATCH));
    const results = new Array<T>(batches.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batches.length) {
        const i = next++;
        results[i] = await call(batches[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, batches.length) }, worker));
    return results;
  }
}
