import { MarketPriceTick } from '../dto/market-price-tick.dto';
import { SetPrice } from '../set-price';

/** The wire tick of a stored set price. */
export function toMarketPriceTick(price: SetPrice, updatedAt: Date): MarketPriceTick {
  return {
    appId: price.appId,
    badgeType: price.badgeType,
    averageListings: price.averageVolume,
    cardAveragePrice: price.cardAveragePrice,
    setPrice: price.setPrice,
    buyOrderAveragePrice: price.buyOrderAveragePrice,
    setBuyOrderPrice: price.setBuyOrderPrice,
    updatedAt: updatedAt.getTime(),
  };
}
