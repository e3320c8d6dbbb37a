import { groupMembersList, inventory, priceOverview, queryLocations } from './community.handlers';
import { HttpError, fromError, htmlError, type SimResponse } from './http-response';
import { WEB_API_ROUTES } from './web-api.handlers';
import { marketSearch } from './market-search.handler';
import { badgePage } from './badge-pages.handler';
import type { Universe } from '../universe/universe';

/** Same text the platform sends for a missing or wrong key. */
const FORBIDDEN_KEY = 'Access is denied. Retrying will not help. Please verify your key= parameter.';

/**
 * Routes one request. Web API and community paths share one origin in simulator mode. The key is checked only
 * on Web API methods (the community site takes none), after routing, so unknown paths are 404 whatever the key.
 */
export function route(u: Universe, tick: number, apiKey: string | null, method: string, rawUrl: string): SimResponse {
  if (method !== 'GET') return htmlError(405, 'Only GET is supported.');
  const url = new URL(rawUrl, 'http://simulator.local');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v0*(\d+)$/, '/v$1');
  const q = url.searchParams;
  try {
    const webApi = WEB_API_ROUTES[path];
    if (webApi) {
      if (apiKey !== null && q.get('key') !== apiKey) return htmlError(403, FORBIDDEN_KEY);
      return webApi(u, tick, q);
    }
    const inv = /^\/inventory\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
    if (inv) return inventory(u, inv[1], inv[2], inv[3], q);
    if (path === '/market/priceoverview') return priceOverview(u, tick, q);
    if (path === '/market/search/render') return marketSearch(u, tick, q);
    const badge = /^\/profiles\/([^/]+)\/(gamecards|badges)\/([^/]+)$/.exec(path);
    if (badge) return badgePage(u, tick, badge[1], badge[2] as 'gamecards' | 'badges', badge[3], q);
    const group = /^\/gid\/([^/]+)\/memberslistxml$/.exec(path);
    if (group) return groupMembersList(u, group[1], q);
    const loc = /^\/actions\/QueryLocations(?:\/([A-Za-z]{2}))?(?:\/([A-Za-z0-9]{1,3}))?$/.exec(path);
    if (loc) return queryLocations(u, loc[1], loc[2]);
    return htmlError(404, 'Not Found');
  } catch (e) {
    if (e instanceof HttpError) return fromError(e);
    throw e;
  }
}
