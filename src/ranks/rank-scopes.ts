import { COLUMN_BOARDS } from './account-boards';

/** The five scopes of a rank, in the order of the profile's rank CSVs. */
export const SCOPE_LEVELS = ['global', 'region', 'country', 'state', 'city'] as const;
export type ScopeLevel = (typeof SCOPE_LEVELS)[number];

/** Where an account lives, as stored on the account row (names as the platform resolved them). */
export interface Placement {
  region: string | null;
  countryName: string | null;
  stateName: string | null;
  cityName: string | null;
}

/** A location filter of a request: every field optional, the given ones must all match. */
export interface LocationFilter {
  region?: string | null;
  country?: string | null;
  state?: string | null;
  city?: string | null;
}

const part = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();

/**
 * A location cell: the account's full location, lower-cased, `region|country|state|city`. Cells are what the
 * engine remembers per account (to move it out of its old scopes) and what filters are matched against.
 */
export function cellOf(placement: Placement): string {
  return [placement.region, placement.countryName, placement.stateName, placement.cityName].map(part).join('|');
}

/**
 * The scope keys of a cell, one per level the account has: `g`, `r:<region>`, `c:<country>`,
 * `s:<country>|<state>`, `t:<country>|<state>|<city>`. Sorted sets and populations are kept per scope key.
 */
export function scopeKeysOf(cell: string): Partial<Record<ScopeLevel, string>> {
  const [region, country, state, city] = cell.split('|');
  const keys: Partial<Record<ScopeLevel, string>> = { global: 'g' };
  if (region) keys.region = `r:${region}`;
  if (country) keys.country = `c:${country}`;
  if (country && state) keys.state = `s:${country}|${state}`;
  if (country && city) keys.city = `t:${country}|${state}|${city}`;
  return keys;
}

/** The level of a scope key (scopeKeysOf): `g` global, `r:` region, `c:` country, `s:` state, `t:` city. */
const LEVEL_OF_KIND: Record<string, ScopeLevel> = { g: 'global', r: 'region', c: 'country', s: 'state', t: 'city' };
export function levelOfScope(scope: string): ScopeLevel {
  return LEVEL_OF_KIND[scope[0]];
}

/**
 * The scope keys a location filter selects among the known cells: the keys of its most specific given level
 * (a filter naming a city selects that city's key, in every cell whose other given fields match too).
 */
export function scopeKeysForFilter(filter: LocationFilter, cells: Iterable<string>): string[] {
  const wanted = [part(filter.region), part(filter.country), part(filter.state), part(filter.city)];
  const level: ScopeLevel = wanted[3] ? 'city' : wanted[2] ? 'state' : wanted[1] ? 'country' : wanted[0] ? 'region' : 'global';
  if (level === 'global') return ['g'];
  const keys = new Set<string>();
  for (const cell of cells) {
    const fields = cell.split('|');
    if (wanted.every((value, i) => !value || fields[i] === value)) {
      const key = scopeKeysOf(cell)[level];
      if (key) keys.add(key);
    }
  }
  return [...keys];
}

/**
 * The boards the engine keeps, by the account column that scores them. Boards scored by the same column
 * (`playtime` and `valid_playtime`: playtime is not audited) share one set.
 */
export const RANKED_COLUMNS: string[] = [...new Set(Object.values(COLUMN_BOARDS) as string[])].sort();

/** The entity property of a column (`foil_badges` → `foilBadges`, `site_score` → `siteScore`). */
export function propertyOf(column: string): string {
  return column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Sorted-set members: the account id's complement, zero-padded, so that among equal scores the reverse order
 * Redis reads a board in (ZREVRANGE, ZREVRANK) puts the lower account id first — the board's tie rule.
 */
const MAX_ID = 4_294_967_295;
export const memberOf = (accountId: number): string => String(MAX_ID - accountId).padStart(10, '0');
export const accountOf = (member: string): number => MAX_ID - Number(member);
/** accountOf for a member already read as a number (the exports parse members digit by digit). */
export const accountOfMemberValue = (member: number): number => MAX_ID - member;

/** The SQL form of scope keys (the zero tail is read from PostgreSQL), matched like the keys: lower-cased. */
export function scopeSql(scopes: string[], offset: number): { where: string; parameters: string[] } {
  const parameters: string[] = [];
  const eq = (column: string, value: string) => {
    if (!value) return `coalesce(a.${column}, '') = ''`;
    parameters.push(value);
    return `lower(a.${column}) = $${offset + parameters.length}`;
  };
  const parts = scopes.map((scope) => {
    const [kind, rest] = [scope.slice(0, 1), scope.slice(2)];
    const [first, second, third] = rest.split('|');
    if (kind === 'r') return eq('region', first);
    if (kind === 'c') return eq('country_name', first);
    if (kind === 's') return `(${eq('country_name', first)} AND ${eq('state_name', second)})`;
    if (kind === 't') return `(${eq('country_name', first)} AND ${eq('state_name', second)} AND ${eq('city_name', third)})`;
    return 'true';
  });
  return { where: parts.length ? `(${parts.join(' OR ')})` : 'false', parameters };
}
