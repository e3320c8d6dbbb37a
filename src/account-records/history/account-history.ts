import { EntityManager } from 'typeorm';
import { HistoryKind } from '../entities/account-history.entity';
import { StoredLocation, locationOf, locationsDiffer } from '../location/account-location';

/**
 * # Account history
 *
 * The changes of an account's platform name, site vanity and location, for staff (`admin.getAccount`): each writer
 * of those columns appends a row to `account_history` in its own transaction, so the history never disagrees with
 * the row. The writers: the worker's update (name, location; not its first update, which is no change), the
 * settings updater (vanity, a country override's location) and `admin.removeVanity`. One insert per changed field,
 * only when it changed; history starts with this table (nothing earlier was kept).
 */

/** What a writer knows of the account before and after its change. */
export interface HistoryFields {
  name?: string | null;
  siteVanity?: string | null;
  location?: StoredLocation;
}

/** Appends the entries of the fields that differ between `before` and `after` (those `after` names). */
export async function recordHistory(manager: EntityManager, accountId: number, before: HistoryFields, after: HistoryFields): Promise<void> {
  const entries: [HistoryKind, unknown, unknown][] = [];
  if (after.name !== undefined && (before.name ?? null) !== (after.name ?? null)) entries.push(['name', before.name ?? null, after.name]);
  if (after.siteVanity !== undefined && (before.siteVanity ?? null) !== (after.siteVanity ?? null))
    entries.push(['vanity', before.siteVanity ?? null, after.siteVanity]);
  if (after.location && before.location && locationsDiffer(locationOf(before.location), locationOf(after.location)))
    entries.push(['location', locationOf(before.location), locationOf(after.location)]);
  if (!entries.length) return;
  await manager.query(
    `INSERT INTO account_history (account_id, kind, old, new)
     SELECT $1, kind, old, new FROM unnest($2::text[], $3::jsonb[], $4::jsonb[]) AS e(kind, old, new)`,
    [accountId, entries.map((e) => e[0]), entries.map((e) => JSON.stringify(e[1])), entries.map((e) => JSON.stringify(e[2]))],
  );
}
