import { SqlConditions } from '../common/sql/sql-conditions';
import { BadgeStatistics } from './badge-catalog.service';

/**
 * Conditions on badge definitions shared by the badge listings (`account.listBadges`, `account.compareBadges`).
 * Every condition is on the `badges` row aliased `b`; the SQL and the TypeScript reading of a badge class live side
 * by side so that what a filter keeps and what a record says about a badge cannot drift apart.
 */

/** The platform's special badge 1, "years of service": its level is the account's age in years, without end. */
const YEARS_OF_SERVICE = 1;

/** The order of badges by name: the curated name, else the app's (needs `apps a` joined on `b.app_id`). */
export const BADGE_NAME_ORDER = "lower(COALESCE(NULLIF(b.name, ''), a.name, ''))";

/**
 * Badges whose level has no cap: event and sale badges (the platform levels them past 5) and years of service.
 * Foil badges are always level 1; other special badges have fixed caps the Web API does not publish.
 */
export const INFINITE_BADGE_SQL = `(NOT b.is_foil AND (b.is_event OR b.is_sale OR (b.app_id IS NULL AND b.platform_badge_id = ${YEARS_OF_SERVICE})))`;

export function isInfinite(badge: Pick<BadgeStatistics, 'isFoil' | 'isEvent' | 'isSale' | 'appId' | 'platformBadgeId'>): boolean {
  return !badge.isFoil && (badge.isEvent || badge.isSale || (badge.appId === null && badge.platformBadgeId === YEARS_OF_SERVICE));
}

/**
 * The app type of a badge: the Web API reports no app types, so every app counts as a `game` (as in
 * `account.listApps` and the per-app leaderboards); the platform's own special badges, which have no app, are `steam`.
 */
export const APP_TYPE_GAME = 'game';
export const APP_TYPE_STEAM = 'steam';

export function appTypeOf(badge: Pick<BadgeStatistics, 'appId'>): string {
  return badge.appId === null ? APP_TYPE_STEAM : APP_TYPE_GAME;
}

/**
 * The highest level a badge can reach: 1 for a foil badge, 5 for a normal app badge; for a badge without a known
 * cap (infinite and special badges) the highest level a tracked holder has reached.
 */
export function maxLevelOf(badge: BadgeStatistics): number {
  if (badge.isFoil) return 1;
  if (badge.appId !== null && !isInfinite(badge)) return 5;
  return badge.highestLevel;
}

export interface BadgeDefinitionFilter {
  /** Only these apps' badges. */
  appIds?: number[] | null;
  /** Not these apps' badges (special badges, having no app, stay). */
  excludeAppIds?: number[] | null;
  /** App types (`appTypeOf`), compared case-insensitively; an unknown type matches nothing. */
  appTypes?: string[] | null;
  isFoil?: boolean | null;
  isEvent?: boolean | null;
  isSale?: boolean | null;
  /** Leave out the platform's special badges (no app). */
  excludeSpecial?: boolean;
  /** Leave out the badges without a level cap (`INFINITE_BADGE_SQL`). */
  excludeInfinite?: boolean;
  /** The platform's holder count, inclusive bounds. */
  scarcity?: { min?: number; max?: number }[];
}

/** Adds the conditions of `filter` on the badge `b` to `where`. */
export function addBadgeFilters(where: SqlConditions, filter: BadgeDefinitionFilter): void {
  if (filter.appIds?.length) where.add((p) => `b.app_id = ANY(${p})`, filter.appIds);
  if (filter.excludeAppIds?.length) where.add((p) => `(b.app_id IS NULL OR b.app_id <> ALL(${p}))`, filter.excludeAppIds);
  if (filter.appTypes?.length) {
    const types = new Set(filter.appTypes.map((type) => type.toLowerCase()));
    const kinds = [types.has(APP_TYPE_GAME) ? 'b.app_id IS NOT NULL' : null, types.has(APP_TYPE_STEAM) ? 'b.app_id IS NULL' : null];
    where.parts.push(`(${kinds.filter(Boolean).join(' OR ') || 'false'})`);
  }
  const flag = (column: string, value: boolean | null | undefined) => {
    if (value !== undefined && value !== null) where.add((p) => `${column} = ${p}`, value);
  };
  flag('b.is_foil', filter.isFoil);
  flag('b.is_event', filter.isEvent);
  flag('b.is_sale', filter.isSale);
  if (filter.excludeSpecial) where.parts.push('b.app_id IS NOT NULL');
  if (filter.excludeInfinite) where.parts.push(`NOT ${INFINITE_BADGE_SQL}`);
  for (const range of filter.scarcity ?? []) where.range('b.scarcity', range);
}
