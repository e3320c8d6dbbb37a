import { redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';

/**
 * What a feed entry says changed. Each projection picks the kinds it depends on; a new one (population statistics)
 * adds its own reader without touching the writers.
 */
export type ChangeKind =
  | 'update-run' // an update run committed: the account's rows (its card, friends, ranks); `payload.runId`, and
  //                `payload.activityIds` [first, last]: the ids of the activity events it recorded lie in that range
  | 'donation' // added to the account's `donated` (its card)
  | 'role' // granted or revoked (its card)
  | 'account-added' // an account row created (a lookup, the CLI, a first sign-in)
  | 'settings' // account.updateSettings / updateVanity: `payload` says which of vanity, location, hidden changed
  | 'ranks-rebuilt' // the rank engine rebuilt its boards from PostgreSQL (rows written behind its back)
  | 'api-key-revoked' // `payload.keyId`
  | 'session-revoked' // `payload.sessionId`
  | 'rows-changed' // the accounts' rows written outside the service's writers (by hand, a repair)
  // The pricing job stored an app's set prices that changed (AppPricer.store): `payload` is a SetPricesChange. No
  // projection reads it; the watches' durable consumer fires set price watches from it.
  | 'set-prices'
  // Cards' quotes stored (`card_market_prices`: AppPricer.store, the seed): `payload` is a CatalogueChange. Recorded
  // on every store, changed or not (each re-read rewrites the quotes' times); the planner's CardQuoteBook follows it.
  | 'card-prices'
  // What the planner's CardSetBook holds of an app changed: its set (`app_card_counts` names, or its classes for an
  // unread set), its name (`apps`); `payload` is a CatalogueChange.
  | 'card-sets'
  | 'pruned'; // the pruner deleted every entry with `xid <= payload.through` (change-feed-pruner.ts)

/** An entry as a writer records it. */
export interface NewChange {
  kind: ChangeKind;
  accountIds?: number[];
  payload?: Record<string, unknown>;
}

/** The payload of a `set-prices` entry: the app and each of its sets whose figures changed, with its set price (cents). */
export interface SetPricesChange {
  appId: number;
  sets: { badgeType: string; setPrice: number }[];
}

/** The payload of a `card-prices` or `card-sets` entry: the apps whose rows changed; no `appIds` (a bulk write): all. */
export interface CatalogueChange {
  appIds?: number[];
}

/** An entry as the follower reads it. `xid` is the recording transaction's id; (xid, id) is its place in the feed. */
export interface FeedEntry {
  id: number;
  xid: number;
  kind: ChangeKind;
  accountIds: number[];
  payload: Record<string, unknown> | null;
}

/** The account ids of the entries of the given kinds, each once. */
export function accountsOf(entries: readonly FeedEntry[], kinds: (entry: FeedEntry) => boolean): number[] {
  const ids = new Set<number>();
  for (const entry of entries) if (kinds(entry)) for (const id of entry.accountIds) ids.add(id);
  return [...ids];
}

/** The apps named by the entries of `kind`, each once: null when there is none, 'all' when one names no app. */
export function appsOf(entries: readonly FeedEntry[], kind: ChangeKind): number[] | 'all' | null {
  let apps: Set<number> | null = null;
  for (const entry of entries) {
    if (entry.kind !== kind) continue;
    const ids = (entry.payload as CatalogueChange | null)?.appIds;
    if (!Array.isArray(ids)) return 'all';
    apps ??= new Set();
    for (const id of ids) apps.add(id);
  }
  return apps && [...apps];
}

/** The pub/sub channel of the nudges (a nudge carries no change, only the accounts to wait for). */
export function nudgeChannel(config: Pick<AppConfig, 'redisPrefix'>): string {
  return redisKey(config, 'change-feed');
}

/** A nudge as published: the accounts named by the entries just committed. */
export interface Nudge {
  accountIds: number[];
}
