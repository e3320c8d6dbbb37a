import { cardTextOfTokens } from '../../src/account-records/card-replica/card-tokens';

describe('card tokens', () => {
  it('should refuse to render a card whose tokens do not match the fields', () => {
    expect(() => cardTextOfTokens('"76561197960265729"\u0001"name"', null)).toThrow(/tokens/);
  });
});
