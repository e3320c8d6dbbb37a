import { HttpError, json, type SimResponse } from './http-response';
import { intParam } from './params';
import { formatPrice } from '../universe/market';
import { classIdOf, type ItemKind } from '../universe/items';
import type { Universe } from '../universe/universe';
import type { RawMarketSearchResponse, RawMarketSearchResult } from '../../client/platform.types';

/** The market search's largest page (`count`), as on the platform. */
export const MARKET_SEARCH_MAX_COUNT = 100;

/**
 * GET /market/search/render/?norender=1: the community market's item kinds (app 753 only) matching the search's
 * category filters, sorted by name (the only `sort_column` served), a page of `count` (≤ 100) from `start`. Filters
 * (each repeatable, as `category_753_<name>[]`): `Game` = `tag_app_<appId>`, `item_class` = `tag_item_class_2`
 * (trading cards) or `tag_item_class_5` (booster packs), `cardborder` = `tag_cardborder_0` / `_1`. Only trading cards
 * and booster packs of the catalogue are listed. Without `norender=1` the platform renders HTML, which the simulator
 * does not: 400.
 */
export function marketSearch(u: Universe, tick: number, q: URLSearchParams): SimResponse {
  if (q.get('norender') !== '1') throw new HttpError(400, 'the simulator serves the search with norender=1 only');
  if (intParam(q, 'appid', 753, 0, 2 ** 31 - 1) !== 753) return json(emptyPage(0, 0));
  const start = intParam(q, 'start', 0, 0, 1_000_000);
  const count = intParam(q, 'count', 10, 1, MARKET_SEARCH_MAX_COUNT);
  const games = q.getAll('category_753_Game[]');
  const classes = q.getAll('category_753_item_class[]');
  const borders = q.getAll('category_753_cardborder[]');
  const apps = games.length
    ? games.flatMap((tag) => {
        const app = /^tag_app_(\d+)$/.exec(tag) ? u.catalogue.byId(Number(tag.slice('tag_app_'.length))) : undefined;
        return app ? [app] : [];
      })
    : u.catalogue.apps;
  const wantCards = !classes.length || classes.includes('tag_item_class_2');
  const wantBoosters = (!classes.length || classes.includes('tag_item_class_5')) && !borders.length;
  const kinds: ItemKind[] = [];
  for (const app of apps) {
    if (wantCards)
      for (const foil of [false, true])
        if (!borders.length || borders.includes(`tag_cardborder_${foil ? 1 : 0}`))
          app.cards.forEach((_, card) => kinds.push({ kind: 'card', app, card, foil }));
    if (wantBoosters) kinds.push({ kind: 'booster', app });
  }
  const rows = kinds.map((kind) => u.describe(classIdOf(kind))!).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const results = rows.slice(start, start + count).map((d): RawMarketSearchResult => {
    const price = u.marketPrice(d.market_hash_name, tick, 1);
    const lowest = price?.lowestPrice ?? null;
    return {
      name: d.name,
      hash_name: d.market_hash_name,
      sell_listings: lowest === null ? 0 : 1 + ((price?.volume ?? 0) % 97),
      sell_price: lowest ?? 0,
      sell_price_text: formatPrice(lowest ?? 0, 1),
      app_icon: 'https://community.cloudflare.steamstatic.com/public/images/apps/753/135dc1ac1cd9763dfc8ad52f4e880d2ac058a36c.jpg',
      app_name: 'Steam',
      asset_description: {
        appid: 753,
        classid: d.classid,
        instanceid: d.instanceid,
        background_color: '',
        icon_url: d.icon_url ?? '',
        tradable: d.tradable,
        name: d.name,
        name_color: '',
        type: d.type,
        market_name: d.market_name,
        market_hash_name: d.market_hash_name,
        commodity: d.commodity,
      },
      ...(lowest === null ? {} : { sale_price_text: formatPrice(Math.max(1, lowest - 2), 1) }),
    };
  });
  return json({ ...emptyPage(start, count, rows.length), results });
}

function emptyPage(start: number, count: number, total = 0): RawMarketSearchResponse {
  return {
    success: true,
    start,
    pagesize: count,
    total_count: total,
    searchdata: {
      query: '',
      search_descriptions: false,
      total_count: total,
      pagesize: count,
      prefix: 'searchResults',
      class_prefix: 'market',
    },
  };
}
