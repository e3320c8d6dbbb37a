import { setPriceOf } from 'src/pricing/set-price';

describe('setPriceOf', () => {
  it('should sum the lowest listings and the sale prices, and average them per card', () => {
    const price = setPriceOf(10, 'normal', [
      { lowestPrice: 10, medianPrice: 9, volume: 100 },
      { lowestPrice: 21, medianPrice: 20, volume: 51 },
      { lowestPrice: 5, medianPrice: 6, volume: 0 },
    ]);
    expect(price).toEqual({
      appId: 10,
      badgeType: 'normal',
      cards: 3,
      unlistedCards: 0,
      unmarketableCards: 0,
      averageVolume: 50,
      cardAveragePrice: 12,
      setPrice: 36,
      buyOrderAveragePrice: 12,
      setBuyOrderPrice: 35,
    });
  });

  it('should count unlisted and unmarketable cards, which add no price', () => {
    const price = setPriceOf(10, 'foil', [
      { lowestPrice: 40, medianPrice: null, volume: null },
      { lowestPrice: null, medianPrice: null, volume: null },
      null,
    ]);
    expect(price).toMatchObject({
      cards: 3,
      unlistedCards: 2,
      unmarketableCards: 1,
      averageVolume: 0,
      cardAveragePrice: 40,
      setPrice: 40,
      buyOrderAveragePrice: 0,
      setBuyOrderPrice: 0,
    });
  });
});
