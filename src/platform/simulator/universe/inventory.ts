import { activityOf, appAt } from './activity';
import { CATALOGUE_SIZE } from './catalogue';
import { BOOSTER_CODE, GEMS_CLASS_NUMBER, classIdOfNumber, classNumberOf } from './items';
import type { World } from './world';
import { Salt, hash, logUniformInt, unit } from '../random';
import type { RawInventoryAsset } from '../../client/platform.types';

/**
 * Inventories are fixed per account (they do not change with ticks). Size is heavy-tailed like a real platform's:
 * 30% empty, otherwise floor(exp(u^TAIL · ln 12,001)) items for a uniform u: two thirds of the non-empty ones hold a
 * single item, a tenth more than 140, 5% more than 900 and 3% more than 2,500 (up to 12,000, so some still need
 * several pages at the 5,000 maximum). About 35 item classes per public account on average, 1,000+ for the largest. Cards come from the account's own
 * games: 86% normal cards, 3% foil cards, 11% booster packs, plus a stack of gems for a third of accounts.
 * Asset ids are globally unique and decodable: ASSET_BASE + accountId*100,000 + index*7 + jitter(0..6).
 */
const ASSET_BASE = 10_000_000_000;
const MAX_ITEMS = 12_000;
/** Shape of the size distribution: 1 would be log-uniform (a median of ~110 items); higher puts more mass near 1. */
const TAIL = 6;

export function inventorySize(w: World, accountId: number): number {
  const h = hash(w.seed, Salt.inventory, accountId, 0xffff);
  if (h % 100 < 30) return 0;
  const u = unit(hash(w.seed, Salt.inventory, accountId, 0xfffe));
  return Math.min(MAX_ITEMS, Math.floor(Math.exp(u ** TAIL * Math.log(MAX_ITEMS + 1))));
}

export function assetIdOf(w: World, accountId: number, index: number): string {
  return String(ASSET_BASE + accountId * 100_000 + index * 7 + (hash(w.seed, Salt.inventory, accountId, index, 1) % 7));
}

/** Position of an asset id in the account's inventory, or -1 if it is not one of its assets. */
export function indexOfAssetId(w: World, accountId: number, assetId: string): number {
  if (!/^\d{1,16}$/.test(assetId)) return -1;
  const index = Math.floor((Number(assetId) - ASSET_BASE - accountId * 100_000) / 7);
  if (index < 0 || index >= inventorySize(w, accountId)) return -1;
  return assetIdOf(w, accountId, index) === assetId ? index : -1;
}

/**
 * The kind of asset `index` (see above) as a class number (items.ts), with no object per asset: an inventory lists
 * and folds up to 12,000 of them.
 */
function classNumberAt(w: World, accountId: number, index: number): number {
  if (index === 0 && hash(w.seed, Salt.inventory, accountId, 0xfffd) % 3 === 0) return GEMS_CLASS_NUMBER;
  const a = activityOf(w.seed, accountId);
  const pick = hash(w.seed, Salt.inventory, accountId, index, 2);
  const appIndex = a.baseGames > 0 ? appAt(a, pick % a.baseGames) : pick % CATALOGUE_SIZE;
  const roll = hash(w.seed, Salt.inventory, accountId, index, 3) % 100;
  if (roll >= 89) return classNumberOf(appIndex, BOOSTER_CODE);
  const card = hash(w.seed, Salt.inventory, accountId, index, 4) % w.catalogue.apps[appIndex].cards.length;
  return classNumberOf(appIndex, card * 2 + (roll >= 86 ? 1 : 0));
}

/** How many items asset `index` of class number `n` stands for: a stack for gems, one for anything else. */
function amountAt(w: World, accountId: number, index: number, n: number): number {
  return n === GEMS_CLASS_NUMBER ? logUniformInt(hash(w.seed, Salt.inventory, accountId, index, 5), 1, 100_000) : 1;
}

/** Assets from `start` (inclusive), at most `count`. */
export function assetsPage(w: World, accountId: number, start: number, count: number): RawInventoryAsset[] {
  const end = Math.min(inventorySize(w, accountId), start + count);
  const out: RawInventoryAsset[] = [];
  for (let i = start; i < end; i++) {
    const n = classNumberAt(w, accountId, i);
    out.push({
      appid: 753,
      contextid: '6',
      assetid: assetIdOf(w, accountId, i),
      classid: classIdOfNumber(n),
      instanceid: '0',
      amount: String(amountAt(w, accountId, i, n)),
    });
  }
  return out;
}

/**
 * The whole inventory folded by class, as foldInventory would fold assetsPage(…, 0, size): each class once, in order
 * of first appearance, represented by its first asset, amounts summed. Only first assets get an asset object (the
 * seed stores the fold, and most assets of a large inventory repeat a class).
 */
export function foldedAssets(w: World, accountId: number): { asset: RawInventoryAsset; amount: number }[] {
  const size = inventorySize(w, accountId);
  // Keyed by class number: most assets of a large inventory repeat a class, and need neither an object nor a string.
  const byClass = new Map<number, { asset: RawInventoryAsset; amount: number }>();
  for (let i = 0; i < size; i++) {
    const n = classNumberAt(w, accountId, i);
    const amount = amountAt(w, accountId, i, n);
    const entry = byClass.get(n);
    if (entry) {
      entry.amount += amount;
      continue;
    }
    const asset = {
      appid: 753,
      contextid: '6',
      assetid: assetIdOf(w, accountId, i),
      classid: classIdOfNumber(n),
      instanceid: '0',
      amount: String(amount),
    };
    byClass.set(n, { asset, amount });
  }
  return [...byClass.values()];
}
