import { foilNameOf } from '../pricing/app-pricer.service';
import { CraftingBadgeType, V1CraftingBadge, V1CraftingCard } from './dto/crafting-plan.dto';

/** A game badge's highest level: 5 for a normal badge, 1 for a foil one (platform-api.md, "Badge facts"). */
export const MAX_LEVEL: Record<CraftingBadgeType, number> = { normal: 5, foil: 1 };
/** The xp of a game badge level when the catalogue has no row for the badge yet (every game badge level gives 100). */
export const DEFAULT_XP_PER_LEVEL = 100;

/** One app the account can level the badges of: its set (normal market hash names), its levels and xp. */
export interface PlanApp {
  appId: number;
  appName: string;
  cardNames: string[];
  level: Record<CraftingBadgeType, number>;
  xpPerLevel: Record<CraftingBadgeType, number>;
}

export interface Quote {
  lowestPrice: number | null;
  updatedAt: Date;
}

/** Copies held by market hash name, and quotes by `${badgeType}\t${marketHashName}`. */
export interface PlanInputs {
  held: Map<string, number>;
  quotes: Map<string, Quote>;
}

export const quoteKey = (badgeType: CraftingBadgeType, marketHashName: string) => `${badgeType}\t${marketHashName}`;

/**
 * One badge's plan: each card held or missing, the levels the cards held make now, what the missing cards cost at
 * each card's own lowest price (the next level, and up to the highest level), and per xp. Null for a badge at its
 * highest level already (nothing to plan).
 */
export function planBadge(app: PlanApp, badgeType: CraftingBadgeType, inputs: PlanInputs): V1CraftingBadge | null {
  const maxLevel = MAX_LEVEL[badgeType];
  const level = Math.min(app.level[badgeType], maxLevel);
  const levelsLeft = maxLevel - level;
  if (levelsLeft <= 0) return null;
  const xpPerLevel = app.xpPerLevel[badgeType];
  const cards: V1CraftingCard[] = app.cardNames.map((name) => {
    const marketHashName = badgeType === 'foil' ? foilNameOf(name) : name;
    const quote = inputs.quotes.get(quoteKey(badgeType, marketHashName));
    return {
      marketHashName,
      held: inputs.held.get(marketHashName) ?? 0,
      lowestPrice: quote?.lowestPrice ?? null,
      priceUpdatedAt: quote ? quote.updatedAt.getTime() : null,
    };
  });
  const levelsCraftableNow = Math.min(levelsLeft, ...cards.map((card) => card.held));
  // Cents summed over the cards to buy; one card to buy without a price makes the sum unknown.
  const costOf = (copies: (card: V1CraftingCard) => number): number | null => {
    let sum = 0;
    for (const card of cards) {
      const n = copies(card);
      if (n <= 0) continue;
      if (card.lowestPrice === null) return null;
      sum += n * card.lowestPrice;
    }
    return sum;
  };
  const cost = levelsCraftableNow > 0 ? 0 : costOf((card) => (card.held === 0 ? 1 : 0));
  const costToMaxLevel = costOf((card) => levelsLeft - card.held);
  const quotedAt = cards.flatMap((card) => (card.priceUpdatedAt === null ? [] : [card.priceUpdatedAt]));
  return {
    appId: app.appId,
    appName: app.appName,
    badgeType,
    level,
    maxLevel,
    xpPerLevel,
    cards,
    missingCards: cards.filter((card) => card.held === 0).length,
    levelsCraftableNow,
    cost,
    costToMaxLevel,
    costPerXp: cost === null ? null : cost / xpPerLevel,
    pricesUpdatedAt: quotedAt.length ? Math.min(...quotedAt) : null,
  };
}

/** The sort key of an order; null (unknown cost) sorts last whatever the direction. */
const SORT_KEYS: Record<string, (badge: Omit<V1CraftingBadge, 'cards'>) => number | null> = {
  costPerXp: (badge) => badge.costPerXp,
  cost: (badge) => badge.cost,
  costToMaxLevel: (badge) => badge.costToMaxLevel,
  levelsCraftable: (badge) => badge.levelsCraftableNow,
  appId: (badge) => badge.appId,
};

/** Orders a plan's badges in place: by the key, then app id ascending, the normal badge before the foil one. */
export function sortPlan<T extends Omit<V1CraftingBadge, 'cards'>>(badges: T[], by: string, direction: 'asc' | 'desc'): void {
  const key = SORT_KEYS[by];
  const sign = direction === 'desc' ? -1 : 1;
  badges.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return sign * (x - y);
    }
    if (a.appId !== b.appId) return a.appId - b.appId;
    return a.badgeType === b.badgeType ? 0 : a.badgeType === 'normal' ? -1 : 1;
  });
}
