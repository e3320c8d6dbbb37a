import type { Catalogue } from './catalogue';
import type { TimeModel } from './time';

/** Shared read-only context every universe module needs: built once per Universe. */
export interface World {
  seed: number;
  /** Accounts are 1..size. */
  size: number;
  time: TimeModel;
  catalogue: Catalogue;
}

export const STEAM_ID_BASE = 76561197960265728n;
export const GROUP_ID_BASE = 103582791429521408n;

export function steamIdOf(accountId: number): string {
  return (STEAM_ID_BASE + BigInt(accountId)).toString();
}

/** Account id for a steamid string, or null when malformed or outside 1..size. */
export function accountIdOf(size: number, steamId: string): number | null {
  if (!/^\d{1,20}$/.test(steamId)) return null;
  const diff = BigInt(steamId) - STEAM_ID_BASE;
  if (diff < 1n || diff > BigInt(size)) return null;
  return Number(diff);
}
