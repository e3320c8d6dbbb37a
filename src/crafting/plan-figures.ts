import { CardSet } from './card-set-book';
import { MAX_LEVEL, PlanApp, Quote } from './crafting-plan';
import { CraftingBadgeType, V1CraftingBadge, V1CraftingCard } from './dto/crafting-plan.dto';

/** A badge of a plan without its cards: what sorting, filters and totals need. The cards are built for a page only. */
export type BadgeFigures = Omit<V1CraftingBadge, 'cards'> & { set: CardSet; levels: Record<CraftingBadgeType, number> };

/**
 * The figures `planBadge` gives a badge (crafting-plan.ts, which stays the reference: the page's badges are built by
 * it), computed in one pass over the set's precomputed quote keys without allocating a card object. Null for a badge
 * at its highest level already.
 */
export function badgeFigures(
  set: CardSet,
  levels: Record<CraftingBadgeType, number>,
  badgeType: CraftingBadgeType,
  held: Map<string, number>,
  quotes: Map<string, Quote>,
): BadgeFigures | null {
  const maxLevel = MAX_LEVEL[badgeType];
  const level = Math.min(levels[badgeType], maxLevel);
  const levelsLeft = maxLevel - level;
  if (levelsLeft <= 0) return null;
  const names = set.names[badgeType];
  const keys = set.keys[badgeType];
  let minHeld = Infinity;
  let missingCards = 0;
  // Next level's missing cards (one each) and up to the highest level; NaN once a card to buy has no price.
  let missingCost = 0;
  let toMax = 0;
  let oldest = Infinity;
  for (let i = 0; i < names.length; i++) {
    const copies = held.get(names[i]) ?? 0;
    const quote = quotes.get(keys[i]);
    const price = quote?.lowestPrice ?? null;
    if (quote) oldest = Math.min(oldest, quote.updatedAt.getTime());
    if (copies < minHeld) minHeld = copies;
    if (copies === 0) {
      missingCards++;
      missingCost = price === null ? NaN : missingCost + price;
    }
    const toBuy = levelsLeft - copies;
    if (toBuy > 0) toMax = price === null ? NaN : toMax + toBuy * price;
  }
  const levelsCraftableNow = Math.min(levelsLeft, minHeld);
  const cost = levelsCraftableNow > 0 ? 0 : Number.isNaN(missingCost) ? null : missingCost;
  const costToMaxLevel = Number.isNaN(toMax) ? null : toMax;
  const xpPerLevel = set.xpPerLevel[badgeType];
  return {
    set,
    levels,
    appId: set.appId,
    appName: set.appName,
    badgeType,
    level,
    maxLevel,
    xpPerLevel,
    missingCards,
    levelsCraftableNow,
    cost,
    costToMaxLevel,
    costPerXp: cost === null ? null : cost / xpPerLevel,
    pricesUpdatedAt: oldest === Infinity ? null : oldest,
  };
}

/** The app `planBadge` takes, from a held set (the page's badges, cards and all). */
export function planAppOf(set: CardSet, levels: Record<CraftingBadgeType, number>): PlanApp {
  return { appId: set.appId, appName: set.appName, cardNames: set.cardNames ?? [], level: levels, xpPerLevel: set.xpPerLevel };
}

/**
 * A badge with its cards (the page's badges, or an export's): what `planBadge` gives, field for field and in its
 * order, from the figures already computed and the set's precomputed names and quote keys.
 */
export function withCards(badge: BadgeFigures, held: Map<string, number>, quotes: Map<string, Quote>): V1CraftingBadge {
  const names = badge.set.names[badge.badgeType];
  const keys = badge.set.keys[badge.badgeType];
  const cards: V1CraftingCard[] = new Array<V1CraftingCard>(names.length);
  for (let i = 0; i < names.length; i++) {
    const quote = quotes.get(keys[i]);
    cards[i] = {
      marketHashName: names[i],
      held: held.get(names[i]) ?? 0,
      lowestPrice: quote?.lowestPrice ?? null,
      priceUpdatedAt: quote ? quote.updatedAt.getTime() : null,
    };
  }
  return {
    appId: badge.appId,
    appName: badge.appName,
    badgeType: badge.badgeType,
    level: badge.level,
    maxLevel: badge.maxLevel,
    xpPerLevel: badge.xpPerLevel,
    cards,
    missingCards: badge.missingCards,
    levelsCraftableNow: badge.levelsCraftableNow,
    cost: badge.cost,
    costToMaxLevel: badge.costToMaxLevel,
    costPerXp: badge.costPerXp,
    pricesUpdatedAt: badge.pricesUpdatedAt,
  };
}
