import { PlanApp, planBadge, Quote, quoteKey, sortPlan } from '../../src/crafting/crafting-plan';
import { V1CraftingBadge } from '../../src/crafting/dto/crafting-plan.dto';

const at = new Date('2026-01-01T00:00:00Z');
const app = (level: { normal: number; foil: number }): PlanApp => ({
  appId: 10,
  appName: 'Ten',
  cardNames: ['10-A', '10-B', '10-C'],
  level,
  xpPerLevel: { normal: 100, foil: 100 },
});
const quotes = (prices: Record<string, number | null>) =>
  new Map<string, Quote>(
    Object.entries(prices).map(([name, price]) => [
      quoteKey(name.endsWith('(Foil)') ? 'foil' : 'normal', name),
      { lowestPrice: price, updatedAt: at },
    ]),
  );

describe('planBadge', () => {
  it('should price the missing cards one by one, the next level and up to the highest', () => {
    const held = new Map([['10-A', 3]]);
    const plan = planBadge(app({ normal: 1, foil: 0 }), 'normal', { held, quotes: quotes({ '10-A': 5, '10-B': 7, '10-C': 11 }) })!;
    expect(plan).toMatchObject({ level: 1, maxLevel: 5, levelsCraftableNow: 0, missingCards: 2, cost: 18, costPerXp: 0.18 });
    // Four levels left: one more A (holds 3), four B and four C.
    expect(plan.costToMaxLevel).toBe(5 + 4 * 7 + 4 * 11);
    expect(plan.pricesUpdatedAt).toBe(at.getTime());
  });

  it('should count levels craftable now, at most the levels left, with nothing to buy for the next', () => {
    const held = new Map([
      ['10-A (Foil)', 2],
      ['10-B (Foil)', 2],
      ['10-C (Foil)', 4],
    ]);
    const plan = planBadge(app({ normal: 0, foil: 0 }), 'foil', { held, quotes: quotes({}) })!;
    expect(plan).toMatchObject({ maxLevel: 1, levelsCraftableNow: 1, cost: 0, costToMaxLevel: 0, costPerXp: 0, pricesUpdatedAt: null });
    expect(plan.cards.map((card) => card.marketHashName)).toEqual(['10-A (Foil)', '10-B (Foil)', '10-C (Foil)']);
  });

  it('should leave out a badge at its highest level and make a cost unknown when a card to buy has no price', () => {
    expect(planBadge(app({ normal: 5, foil: 0 }), 'normal', { held: new Map(), quotes: quotes({}) })).toBeNull();
    const plan = planBadge(app({ normal: 4, foil: 0 }), 'normal', {
      held: new Map([['10-C', 1]]),
      quotes: quotes({ '10-A': 5, '10-B': null }),
    })!;
    expect(plan).toMatchObject({ cost: null, costToMaxLevel: null, costPerXp: null });
  });
});

describe('sortPlan', () => {
  it('should put unknown costs last in either direction', () => {
    const badge = (appId: number, cost: number | null) => ({ appId, badgeType: 'normal', cost, costPerXp: cost }) as V1CraftingBadge;
    const badges = [badge(1, null), badge(2, 30), badge(3, 10)];
    sortPlan(badges, 'cost', 'asc');
    expect(badges.map((b) => b.appId)).toEqual([3, 2, 1]);
    sortPlan(badges, 'cost', 'desc');
    expect(badges.map((b) => b.appId)).toEqual([2, 3, 1]);
  });
});
