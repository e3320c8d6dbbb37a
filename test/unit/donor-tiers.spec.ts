import { DEFAULT_PAGE_SIZE, PAGE_SIZE_BY_TIER, donorTier, maxPageSizeOf, tierOfDonations } from '../../src/account-records/donor-tiers';
import { enteredBucket, rankCounts } from '../../src/ranks/populated-boards';

describe('donor tiers', () => {
  it('maps lifetime donations to tiers at $1, $10, $50 and $250', () => {
    expect([0, 99, 100, 999, 1_000, 4_999, 5_000, 24_999, 25_000, 10_000_000].map(tierOfDonations)).toEqual([
      null,
      null,
      'tier_1',
      'tier_1',
      'tier_2',
      'tier_2',
      'tier_3',
      'tier_3',
      'tier_mythic',
      'tier_mythic',
    ]);
  });

  it('takes the highest of donations, the donator role and a role’s tier override', () => {
    expect(donorTier(0, [{ role: 'donator' }])).toBe('tier_1');
    expect(donorTier(1_000, [{ role: 'donator' }])).toBe('tier_2');
    expect(donorTier(100, [{ role: 'amethyst', extras: { tier: 'tier_3' } }])).toBe('tier_3');
    expect(donorTier(0, [{ role: 'beta', extras: { tier: 'gold' } }])).toBeNull();
  });

  it('sizes the pages by tier, staff getting the largest', () => {
    expect(maxPageSizeOf(0, [])).toBe(DEFAULT_PAGE_SIZE);
    expect(maxPageSizeOf(5_000, [])).toBe(PAGE_SIZE_BY_TIER.tier_3);
    expect(maxPageSizeOf(0, [{ role: 'staff' }])).toBe(PAGE_SIZE_BY_TIER.tier_mythic);
  });
});

describe('populated boards', () => {
  it('counts a rank only above 0 on a board of at least the minimum', () => {
    expect([rankCounts(0, 500, 100), rankCounts(1, 99, 100), rankCounts(1, 100, 100)]).toEqual([false, false, true]);
  });

  it('names the tightest top entered, only on boards larger than that top', () => {
    expect(enteredBucket(0, 1, 5000, 100)).toBe(10);
    expect(enteredBucket(150, 50, 5000, 100)).toBe(100);
    expect(enteredBucket(5, 3, 5000, 100)).toBeNull();
    expect(enteredBucket(2000, 900, 5000, 100)).toBe(1000);
    expect(enteredBucket(2000, 900, 1000, 100)).toBeNull();
    expect(enteredBucket(0, 5, 50, 100)).toBeNull();
    expect(enteredBucket(40, 5, 300, 20)).toBe(10);
  });
});
