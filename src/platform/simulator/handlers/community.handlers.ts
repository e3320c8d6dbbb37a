import { HttpError, htmlError, json, type SimResponse } from './http-response';
import { intParam, required } from './params';
import { formatPrice, formatVolume, SUPPORTED_CURRENCIES } from '../universe/market';
import type { Universe } from '../universe/universe';
import { GROUP_ID_BASE } from '../universe/world';
import type {
  RawInventoryDescription,
  RawInventoryResponse,
  RawLocationCity,
  RawLocationCountry,
  RawLocationState,
  RawPriceOverview,
} from '../../client/platform.types';

/** Page size when the caller sends no `count`, and the platform's maximum. */
export const DEFAULT_INVENTORY_COUNT = 2000;
export const MAX_INVENTORY_COUNT = 5000;

/**
 * GET /inventory/{steamid}/{appid}/{contextid}: private and unknown profiles → 403 with body `null`; pages of
 * `count` assets starting after `start_assetid`; `more_items`/`last_assetid` while more remain.
 */
export function inventory(u: Universe, steamId: string, appId: string, contextId: string, q: URLSearchParams): SimResponse {
  if (!/^\d{1,20}$/.test(steamId)) throw new HttpError(400, 'bad steamid', 'null');
  const count = intParam(q, 'count', DEFAULT_INVENTORY_COUNT, 1, MAX_INVENTORY_COUNT);
  const accountId = u.accountIdOf(steamId);
  if (accountId === null || u.isPrivate(accountId)) return json(null, 403);
  if (appId !== '753' || contextId !== '6') return json({ total_inventory_count: 0, success: 1 } satisfies RawInventoryResponse);
  const total = u.inventorySize(accountId);
  let start = 0;
  const after = q.get('start_assetid');
  if (after !== null && after !== '') {
    const index = u.inventoryIndexOf(accountId, after);
    if (index < 0) throw new HttpError(400, 'bad start_assetid', 'null');
    start = index + 1;
  }
  const assets = u.inventoryAssets(accountId, start, count);
  const descriptions = new Map<string, RawInventoryDescription>();
  for (const a of assets) if (!descriptions.has(a.classid)) descriptions.set(a.classid, u.describe(a.classid)!);
  // An empty page carries no assets/descriptions keys at all, like the platform's empty inventories.
  const body: RawInventoryResponse =
    assets.length > 0
      ? { assets, descriptions: [...descriptions.values()], total_inventory_count: total, success: 1 }
      : { total_inventory_count: total, success: 1 };
  if (start + assets.length < total) {
    body.more_items = 1;
    body.last_assetid = assets[assets.length - 1].assetid;
  }
  return json(body);
}

/** GET /market/priceoverview/: unknown or unmarketable items → {success:false} (HTTP 200; see README). */
export function priceOverview(u: Universe, tick: number, q: URLSearchParams): SimResponse {
  const appId = intParam(q, 'appid', 0, 0, 2 ** 31 - 1);
  const currency = intParam(q, 'currency', 1, 1, 100);
  const name = required(q, 'market_hash_name');
  if (!(SUPPORTED_CURRENCIES as readonly number[]).includes(currency)) throw new HttpError(400, 'unsupported currency');
  const price = appId === 753 ? u.marketPrice(name, tick, currency) : null;
  if (!price) return json({ success: false } satisfies RawPriceOverview);
  const body: RawPriceOverview = { success: true };
  if (price.lowestPrice !== null) body.lowest_price = formatPrice(price.lowestPrice, currency);
  if (price.volume !== null) body.volume = formatVolume(price.volume);
  if (price.medianPrice !== null) body.median_price = formatPrice(price.medianPrice, currency);
  return json(body);
}

/** GET /actions/QueryLocations[/{cc}[/{state}]]: bare arrays; unknown codes give []. */
export function queryLocations(u: Universe, cc?: string, state?: string): SimResponse {
  if (cc === undefined) {
    return json(
      u
        .countries()
        .map((c): RawLocationCountry => ({ countrycode: c.countryCode, countryname: c.countryName, hasstates: c.hasStates ? 1 : 0 })),
    );
  }
  if (state === undefined) {
    return json(
      u.states(cc).map((s): RawLocationState => ({ countrycode: s.countryCode, statecode: s.stateCode, statename: s.stateName })),
    );
  }
  return json(
    u
      .cities(cc, state)
      .map((c): RawLocationCity => ({ countrycode: c.countryCode, statecode: c.stateCode, cityid: c.cityId, cityname: c.cityName })),
  );
}

/** Members per page of the group members list, as on the platform. */
export const GROUP_MEMBERS_PAGE = 1000;

/**
 * GET /gid/{gid64}/memberslistxml/?xml=1&p=N: a group's details and one page of its members (1,000 a page, the
 * owner first) as the platform's XML, text in CDATA. Hidden groups → 403, unknown gids → 404 (HTML pages).
 */
export function groupMembersList(u: Universe, gid64: string, q: URLSearchParams): SimResponse {
  if (!/^\d{1,20}$/.test(gid64)) throw new HttpError(400, 'bad group id');
  const page = intParam(q, 'p', 1, 1, 1_000_000);
  const offset = BigInt(gid64) - GROUP_ID_BASE;
  const group = offset >= 1n && offset <= BigInt(u.groupCount) ? u.group(Number(offset)) : null;
  if (!group) return htmlError(404, 'No group could be retrieved for the given URL.');
  if (group.hidden) return htmlError(403, 'This group is private.');
  const members = u.groupMembers(group.gid);
  const totalPages = Math.max(1, Math.ceil(members.length / GROUP_MEMBERS_PAGE));
  const start = (page - 1) * GROUP_MEMBERS_PAGE;
  const avatar = `https://avatars.steamstatic.com/${group.avatarHash}`;
  const cdata = (text: string) => `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    '<memberList>',
    `<groupID64>${gid64}</groupID64>`,
    '<groupDetails>',
    `<groupName>${cdata(group.name)}</groupName>`,
    `<groupURL>${cdata(group.vanity)}</groupURL>`,
    `<headline>${cdata(group.headline)}</headline>`,
    `<summary>${cdata(group.summary)}</summary>`,
    `<avatarIcon>${cdata(`${avatar}.jpg`)}</avatarIcon>`,
    `<avatarMedium>${cdata(`${avatar}_medium.jpg`)}</avatarMedium>`,
    `<avatarFull>${cdata(`${avatar}_full.jpg`)}</avatarFull>`,
    `<memberCount>${group.memberCount}</memberCount>`,
    `<membersInChat>${group.membersInChat}</membersInChat>`,
    `<membersInGame>${group.membersInGame}</membersInGame>`,
    `<membersOnline>${group.membersOnline}</membersOnline>`,
    '</groupDetails>',
    `<memberCount>${group.memberCount}</memberCount>`,
    `<totalPages>${totalPages}</totalPages>`,
    `<currentPage>${page}</currentPage>`,
    `<startingMember>${start}</startingMember>`,
    ...(page < totalPages ? [`<nextPageLink>${cdata(`/gid/${gid64}/memberslistxml/?xml=1&p=${page + 1}`)}</nextPageLink>`] : []),
    '<members>',
    ...members.slice(start, start + GROUP_MEMBERS_PAGE).map((accountId) => `<steamID64>${u.steamIdOf(accountId)}</steamID64>`),
    '</members>',
    '</memberList>',
  ];
  return { status: 200, body: lines.join('\n'), contentType: 'text/xml; charset=utf-8' };
}
