import type { Catalogue, CatalogueApp } from './catalogue';
import { Salt, hex40 } from '../random';
import type { RawInventoryDescription, RawInventoryTag } from '../../client/platform.types';

/**
 * Community item kinds (app 753, context 6) and their descriptions. A kind is identified by its classid, which is
 * decodable (CLASS_BASE + appIndex*100 + code) so descriptions and market names need no lookup table:
 * code = card*2 (+1 for foil) for trading cards, 99 for the app's booster pack. Gems use the platform's classid.
 */
export const GEMS_CLASSID = '667924416';
const CLASS_BASE = 3_000_000_000;
export const BOOSTER_CODE = 99;

export type ItemKind =
  { kind: 'card'; app: CatalogueApp; card: number; foil: boolean } | { kind: 'booster'; app: CatalogueApp } | { kind: 'gems' };

export function classIdOf(k: ItemKind): string {
  if (k.kind === 'gems') return GEMS_CLASSID;
  return classIdOfNumber(classNumberOf(k.app.index, k.kind === 'booster' ? BOOSTER_CODE : k.card * 2 + (k.foil ? 1 : 0)));
}

/**
 * A kind as one number (its classid less CLASS_BASE: appIndex * 100 + code; GEMS_CLASS_NUMBER for gems), for loops
 * over thousands of assets that need no object per asset (inventory.ts).
 */
export const GEMS_CLASS_NUMBER = -1;

export function classNumberOf(appIndex: number, code: number): number {
  return appIndex * 100 + code;
}

export function classIdOfNumber(n: number): string {
  return n === GEMS_CLASS_NUMBER ? GEMS_CLASSID : String(CLASS_BASE + n);
}

export function kindOfClassId(catalogue: Catalogue, classId: string): ItemKind | null {
  if (classId === GEMS_CLASSID) return { kind: 'gems' };
  const rel = Number(classId) - CLASS_BASE;
  if (!Number.isInteger(rel) || rel < 0) return null;
  const app = catalogue.apps[Math.floor(rel / 100)];
  const code = rel % 100;
  if (!app) return null;
  if (code === BOOSTER_CODE) return { kind: 'booster', app };
  const card = Math.floor(code / 2);
  return card < app.cards.length ? { kind: 'card', app, card, foil: code % 2 === 1 } : null;
}

/** `{appId}-{Card Name}`, `{appId}-{Card Name} (Foil)`, `{appId}-{App Name} Booster Pack`. */
export function marketHashNameOf(k: ItemKind): string {
  if (k.kind === 'gems') return '753-Gems';
  return `${k.app.appId}-${displayName(k)}`;
}

/** Inverse of marketHashNameOf for marketable kinds (null for anything else, including gems). */
export function kindOfMarketHashName(catalogue: Catalogue, hashName: string): ItemKind | null {
  const m = /^(\d+)-(.+)$/.exec(hashName);
  const app = m ? catalogue.byId(Number(m[1])) : undefined;
  if (!m || !app) return null;
  const rest = m[2];
  if (rest === `${app.name} Booster Pack`) return { kind: 'booster', app };
  const foil = rest.endsWith(' (Foil)');
  const card = catalogue.cardIndexOf(app, foil ? rest.slice(0, -' (Foil)'.length) : rest);
  return card >= 0 ? { kind: 'card', app, card, foil } : null;
}

function displayName(k: ItemKind): string {
  if (k.kind === 'gems') return 'Gems';
  if (k.kind === 'booster') return `${k.app.name} Booster Pack`;
  return k.foil ? `${k.app.cards[k.card]} (Foil)` : k.app.cards[k.card];
}

function tag(category: string, internal: string, categoryName: string, name: string): RawInventoryTag {
  return { category, internal_name: internal, localized_category_name: categoryName, localized_tag_name: name };
}

export function describe(seed: number, k: ItemKind): RawInventoryDescription {
  const classid = classIdOf(k);
  const name = displayName(k);
  const base = { appid: 753, classid, instanceid: '0', name, market_name: name, market_hash_name: marketHashNameOf(k) };
  const icon = hex40(seed, Salt.inventory, Number(classid), 1);
  if (k.kind === 'gems') {
    return {
      ...base,
      type: 'Steam Gems',
      marketable: 0,
      tradable: 1,
      commodity: 1,
      icon_url: icon,
      tags: [tag('item_class', 'item_class_7', 'Item Type', 'Steam Gems')],
    };
  }
  const game = tag('Game', `app_${k.app.appId}`, 'Game', k.app.name);
  if (k.kind === 'booster') {
    return {
      ...base,
      type: 'Booster Pack',
      market_fee_app: k.app.appId,
      marketable: 1,
      tradable: 1,
      commodity: 1,
      icon_url: icon,
      tags: [game, tag('item_class', 'item_class_5', 'Item Type', 'Booster Pack')],
    };
  }
  return {
    ...base,
    type: `${k.app.name} ${k.foil ? 'Foil ' : ''}Trading Card`,
    market_fee_app: k.app.appId,
    marketable: 1,
    tradable: 1,
    commodity: 1,
    icon_url: icon,
    tags: [
      game,
      tag('item_class', 'item_class_2', 'Item Type', 'Trading Card'),
      tag('cardborder', `cardborder_${k.foil ? 1 : 0}`, 'Card Border', k.foil ? 'Foil' : 'Normal'),
    ],
  };
}
