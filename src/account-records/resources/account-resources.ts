/**
 * # Resources
 *
 * Per-account permissions with a meaning in this service, as `account.getSession` lists them (`resources`) and
 * `admin.getAccount` shows them. Each has a value the service computes (from config, the donor tier, the roles) and
 * an operator may grant an account another one with `admin.updateResources` (kept in `account_resources`), which
 * then replaces the computed value where the service enforces it:
 *
 * - `developer_apps`: live developer apps the account may hold (DeveloperAppsService.create; default
 *   `DEVELOPER_APPS_PER_ACCOUNT`);
 * - `max_badge_crafters`: the largest page of `badge.listCrafters` (default: by donor tier, donor-tiers.ts);
 * - `max_find_owners`: the largest page of `app.listOwners` (the same default).
 *
 * Those three are the grantable ones; the others the reference names (`account_refresh_rate`, … ) are reported but
 * follow from roles and config only, and a grant of them is a 422. No process keeps a copy of a grant: each limit is
 * read with the statement that enforces it, so a grant holds from the next request on.
 */
export const GRANTABLE_RESOURCES = ['developer_apps', 'max_badge_crafters', 'max_find_owners'] as const;
export type GrantableResource = (typeof GRANTABLE_RESOURCES)[number];

/** The largest value a grant may give each resource (a page of 1,000 is the largest any listing serves). */
export const RESOURCE_MAXIMUM: Record<GrantableResource, number> = { developer_apps: 100, max_badge_crafters: 1000, max_find_owners: 1000 };

export const isGrantableResource = (resource: string): resource is GrantableResource =>
  (GRANTABLE_RESOURCES as readonly string[]).includes(resource);

/** The granted value, as the statements that enforce a resource read it (a decimal string in the table). */
export const GRANTED_VALUE_SQL = (account: string, resource: string) =>
  `(SELECT value::integer FROM account_resources WHERE account_id = ${account} AND resource = ${resource})`;
