import { Holding, uniqueHoldings } from '../badges/holders/holdings-diff';
import { Badge, Friend, InventoryItem, OwnedGame } from '../platform/client/platform.types';
import { ItemKind } from '../items/entities/inventory-item.entity';
import { accountIdOf } from '../account-records/account.enums';
import { PlatformSnapshot } from './platform-snapshot';
import { itemKindOf } from './profile-fields';

/**
 * The rows one refresh stores, derived purely from its platform snapshot. AccountWriter stores them one account at
 * a time; the bulk seed (src/seed) stores a whole population with COPY. Both derive rows here, so a seeded
 * account holds exactly what a refresh of the same platform state would have stored. Where the writer's SQL
 * drops duplicates (`ON CONFLICT DO NOTHING`, the first row wins) these functions drop them the same way, because
 * a COPY cannot.
 */

/** A badge definition's natural key: one row per app badge (normal and foil) and per special badge. */
export function badgeKey(badge: { appId?: number; borderColor?: number; badgeId: number }): string {
  return badge.appId !== undefined ? `app:${badge.appId}:${badge.borderColor === 1 ? 'foil' : 'normal'}` : `special:${badge.badgeId}`;
}

export interface BadgeDefinition {
  key: string;
  appId: number | null;
  platformBadgeId: number;
  isFoil: boolean;
  scarcity: number;
}

/** The badge definitions a snapshot names, sorted by key; of two badges with one key the later one counts. */
export function badgeDefinitions(snapshot: PlatformSnapshot): BadgeDefinition[] {
  const byKey = new Map<string, Badge>(snapshot.badges.badges.map((badge) => [badgeKey(badge), badge]));
  return [...byKey.keys()].sort().map((key) => badgeDefinition(byKey.get(key)!));
}

/** The definition a badge names (its `badges` row). */
export function badgeDefinition(badge: Badge): BadgeDefinition {
  return {
    key: badgeKey(badge),
    appId: badge.appId ?? null,
    platformBadgeId: badge.badgeId,
    isFoil: badge.borderColor === 1,
    scarcity: badge.scarcity,
  };
}

/**
 * The apps a snapshot names, with the name and icon a public library gives them ('' when only a badge or an
 * item names the app). A named sighting wins over an unnamed one.
 */
export function catalogueApps(snapshot: PlatformSnapshot): Map<number, { name: string; icon: string }> {
  const apps = new Map<number, { name: string; icon: string }>();
  const note = (appId: number, name = '', icon = '') => {
    const known = apps.get(appId);
    if (!known || (!known.name && name)) apps.set(appId, { name, icon });
  };
  for (const badge of snapshot.badges.badges) if (badge.appId !== undefined) note(badge.appId);
  if (snapshot.games.visibility === 'public') for (const game of snapshot.games.games) note(game.appId, game.name, game.imgIconUrl);
  if (snapshot.inventory.visibility === 'public')
    for (const item of snapshot.inventory.items) if (item.marketFeeApp) note(item.marketFeeApp);
  return apps;
}

/**
 * The badges held after the refresh (`account_badges` rows), one per badge id. `badgeIdOf` names a badge's
 * stored id: the writer looks its key up among the definitions it upserted, the seed numbers badges up front.
 */
export function heldBadges(badges: Badge[], badgeIdOf: (badge: Badge) => number): Holding[] {
  return uniqueHoldings(
    badges.map((b) => ({
      badgeId: badgeIdOf(b),
      level: b.level,
      xp: b.xp,
      completionTime: new Date(b.completionTime * 1000),
    })),
  );
}

export interface AppRow {
  appId: number;
  playtime: number;
  playtime2Weeks: number;
  lastPlayed: Date | null;
}

/** `account_apps` rows of a public library, one per app. */
export function appRows(games: OwnedGame[]): AppRow[] {
  return firstOf(
    games.map((g) => ({
      appId: g.appId,
      playtime: g.playtimeForever,
      playtime2Weeks: g.playtime2Weeks ?? 0,
      lastPlayed: g.rtimeLastPlayed ? new Date(g.rtimeLastPlayed * 1000) : null,
    })),
    (row) => row.appId,
  );
}

/** `account_friends` rows of a public friend list: friends that are individual accounts, one row each. */
export function friendRows(friends: Friend[]): { friendAccountId: number; friendSince: Date | null }[] {
  const rows = friends
    .map((f) => ({ friendAccountId: accountIdOf(f.steamId), friendSince: f.friendSince ? new Date(f.friendSince * 1000) : null }))
    .filter((f): f is { friendAccountId: number; friendSince: Date | null } => f.friendAccountId !== null);
  return firstOf(rows, (row) => row.friendAccountId);
}

/** `account_groups` rows of a public group list. */
export function groupRows(groups: string[]): string[] {
  return firstOf(groups, (group) => group);
}

/**
 * Inventory assets folded by class: the first asset of a class represents it (its asset id, names, tags), the
 * amounts add up. Generic so that the seed can fold raw assets before mapping them (see src/seed).
 */
export function foldInventory<T extends { classId: string; amount: number }>(items: Iterable<T>): { item: T; amount: number }[] {
  const byClass = new Map<string, { item: T; amount: number }>();
  for (const item of items) {
    const entry = byClass.get(item.classId);
    if (entry) entry.amount += item.amount;
    else byClass.set(item.classId, { item, amount: item.amount });
  }
  return [...byClass.values()];
}

export interface InventoryRow {
  classId: string;
  appId: number | null;
  kind: ItemKind;
  name: string;
  marketHashName: string;
  amount: number;
  assetId: string;
}

/** The `inventory_items` row of one folded class. */
export function inventoryRow(item: InventoryItem, amount: number): InventoryRow {
  return {
    classId: item.classId,
    appId: item.marketFeeApp ?? null,
    kind: itemKindOf(item),
    name: item.name,
    marketHashName: item.marketHashName,
    amount,
    assetId: item.assetId,
  };
}

function firstOf<T, K>(rows: T[], key: (row: T) => K): T[] {
  const seen = new Set<K>();
  return rows.filter((row) => {
    const k = key(row);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
