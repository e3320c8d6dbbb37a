import { PlanApp, planBadge, Quote, quoteKey, sortPlan } from '../../src/crafting/crafting-plan';
import { CardSet } from '../../src/crafting/card-set-book';
import { V1CraftingBadge } from '../../src/crafting/dto/crafting-plan.dto';
import { badgeFigures, planAppOf, withCards } from '../../src/crafting/plan-figures';

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

describe('badgeFigures', () => {
  /** A deterministic pseudo-random source, so a failure replays. */
  const random = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

  it('should give the figures and cards planBadge gives, for every badge of many random sets, holdings and quotes', () => {
    const next = random(62);
    let compared = 0;
    let unknown = 0;
    for (let round = 0; round < 400; round++) {
      const names = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, i) => `${round}-Card ${i}`);
      const foils = names.map((name) => `${name} (Foil)`);
      const set: CardSet = {
        appId: round,
        appName: `App ${round}`,
        cardNames: names,
        names: { normal: names, foil: foils },
        keys: { normal: names.map((name) => quoteKey('normal', name)), foil: foils.map((name) => quoteKey('foil', name)) },
        xpPerLevel: { normal: 100, foil: next() < 0.5 ? 100 : 250 },
      };
      const levels = { normal: Math.floor(next() * 7), foil: Math.floor(next() * 2) };
      const held = new Map<string, number>();
      const prices = new Map<string, Quote>();
      for (const name of [...names, ...foils]) {
        if (next() < 0.6) held.set(name, Math.floor(next() * 6));
        const roll = next();
        if (roll < 0.8)
          prices.set(quoteKey(name.endsWith('(Foil)') ? 'foil' : 'normal', name), {
            lowestPrice: roll < 0.75 ? 1 + Math.floor(next() * 300) : null,
            updatedAt: new Date(at.getTime() - Math.floor(next() * 1e6)),
          });
      }
      for (const type of ['normal', 'foil'] as const) {
        const expected = planBadge(planAppOf(set, levels), type, { held, quotes: prices });
        const figures = badgeFigures(set, levels, type, held, prices);
        if (expected === null) {
          expect(figures).toBeNull();
          continue;
        }
        const { cards: _cards, ...rest } = expected;
        const { set: _set, levels: _levels, ...got } = figures!;
        expect(got).toEqual(rest);
        // With its cards: the same badge, field for field and in the same order (the wire's JSON is the same text).
        expect(JSON.stringify(withCards(figures!, held, prices))).toBe(JSON.stringify(expected));
        compared++;
        if (rest.cost === null) unknown++;
      }
    }
    // The random data reaches the cases that matter: many badges, some of unknown cost.
    expect(compared).toBeGreaterThan(300);
    expect(unknown).toBeGreaterThan(10);
  });
});
