import { rankMet } from '../../src/watches/watch-targets';

describe('rank watch conditions', () => {
  it('should meet "reaches" at the rank or better only, and never unranked', () => {
    const reaches = { rank: 100 };
    expect([1, 99, 100, 101, null].map((rank) => rankMet(reaches, rank))).toEqual([true, true, true, false, false]);
  });

  it('should meet "leaves" worse than the rank or unranked', () => {
    const leaves = { rank: 100, direction: 'leaves' as const };
    expect([1, 100, 101, null].map((rank) => rankMet(leaves, rank))).toEqual([false, false, true, true]);
  });
});
