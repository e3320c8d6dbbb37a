/**
 * # Catalogue domains (`badges`, `apps`)
 *
 * Population statistics whose population is the catalogue, not the accounts: one value per badge definition (`badges`)
 * or per app (`apps`), read from the catalogue tables the update writer keeps in step with every update
 * (`badge_holder_stats` by BadgeHolderStats, `app_owner_counts` by AppOwnerCounts, `badges.scarcity` as the platform
 * last reported it). No request aggregates account rows: a process loads the domain's values, one row per badge or
 * app, at most every CATALOGUE_RELOAD_MS (catalogue-values.service.ts) and answers from them, so the work is bounded by
 * the catalogue's size whatever the number of accounts.
 *
 * Served for the global scope only (badges and apps have no location), and by getDistribution, getInequality and
 * getBivariate (both axes in the same domain); getMetricByScope, getMyPercentiles and getTrend are account
 * statistics and answer 422 for these domains.
 *
 * Not served: an app's playtime (the minutes its owners played). Keeping it exact would add a write to the app's row
 * for every update whose library played it, the hot rows app_owner_counts avoids by writing only gained or lost apps;
 * summing `account_apps` per request is the per-request aggregate over accounts the analytics never do.
 */

export const CATALOGUE_DOMAINS = ['badges', 'apps'] as const;
export type CatalogueDomain = (typeof CATALOGUE_DOMAINS)[number];

export interface CatalogueMetric {
  id: string;
  /** The table column holding it, as listMetrics names it. */
  column: string;
  kind: 'count' | 'days';
  /** Its SQL value over the domain's row (`b` badges + `s` badge_holder_stats; `p` apps + `o` app_owner_counts); null: not counted. */
  sql: string;
}

/** Whole UTC days from a timestamp to today (null when unknown), as account_age ages accounts. */
const daysSince = (column: string) =>
  `CASE WHEN ${column} IS NOT NULL THEN greatest(0, (now() AT TIME ZONE 'UTC')::date - (${column} AT TIME ZONE 'UTC')::date) END`;

export const CATALOGUE_METRICS: Record<CatalogueDomain, readonly CatalogueMetric[]> = {
  badges: [
    // Tracked accounts holding the badge at any level (0 for a badge nobody tracked holds).
    { id: 'holders', column: 'badge_holder_stats.holders', kind: 'count', sql: 'coalesce(s.holders, 0)' },
    // The platform's own holder count of the badge, as last reported.
    { id: 'scarcity', column: 'badges.scarcity', kind: 'count', sql: 'b.scarcity' },
    // Days since a tracked holder first completed the badge (badges never completed by a tracked holder: not counted).
    { id: 'first_completion_age', column: 'badge_holder_stats.first_completion', kind: 'days', sql: daysSince('s.first_completion') },
    // Days since the latest completion by a tracked holder: how recently the badge is still being crafted.
    { id: 'last_completion_age', column: 'badge_holder_stats.last_completion', kind: 'days', sql: daysSince('s.last_completion') },
  ],
  apps: [
    // Tracked libraries holding the app (0 for an app seen only in badges or inventories).
    { id: 'owners', column: 'app_owner_counts.owners', kind: 'count', sql: 'coalesce(o.owners, 0)' },
  ],
};

/** The rows of a domain: every badge definition, every app the service has seen. */
export const CATALOGUE_ROWS: Record<CatalogueDomain, string> = {
  badges: 'badges b LEFT JOIN badge_holder_stats s ON s.badge_id = b.id',
  apps: 'apps p LEFT JOIN app_owner_counts o ON o.app_id = p.app_id',
};

export const CATALOGUE_METRIC_IDS = CATALOGUE_DOMAINS.flatMap((domain) => CATALOGUE_METRICS[domain].map((metric) => metric.id));

export function isCatalogueDomain(domain: string): domain is CatalogueDomain {
  return (CATALOGUE_DOMAINS as readonly string[]).includes(domain);
}
