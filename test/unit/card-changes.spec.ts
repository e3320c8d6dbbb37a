import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { CardChanges, cardsChangedChannel, parseCardsChanged } from '../../src/account-records/card-replica/card-changes';
import { cardTextOfTokens } from '../../src/account-records/card-replica/card-tokens';
import { AppConfig } from '../../src/config/app-config';

describe('card changes', () => {
  it('should read the accounts a message names, and nothing from anything else on the channel', () => {
    expect(parseCardsChanged('{"accountIds":[1,2,3]}')).toEqual([1, 2, 3]);
    expect(parseCardsChanged('{"accountIds":[]}')).toEqual([]);
    for (const stray of ['', 'null', '[]', '{}', '{"accountIds":"1"}', '{"accountIds":[1.5]}', '{"accountIds":["1"]}', '{']) {
      expect({ stray, ids: parseCardsChanged(stray) }).toEqual({ stray, ids: null });
    }
  });

  it('should announce many accounts in messages of at most a thousand, in order', async () => {
    const redis = new Redis({ host: '127.0.0.1', port: 6379 });
    const listener = redis.duplicate();
    const config = { redisPrefix: `test:card-changes:${randomUUID()}` } as AppConfig;
    try {
      const heard: number[][] = [];
      listener.on('message', (_channel: string, raw: string) => heard.push(parseCardsChanged(raw)!));
      await listener.subscribe(cardsChangedChannel(config));
      const ids = Array.from({ length: 2_500 }, (_, i) => i + 1);
      await new CardChanges(redis, config).announce(ids);
      const deadline = Date.now() + 5_000;
      while (heard.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard.map((message) => message.length)).toEqual([1_000, 1_000, 500]);
      expect(heard.flat()).toEqual(ids);
    } finally {
      listener.disconnect();
      redis.disconnect();
    }
  });

  it('should refuse to render a card whose tokens do not match the fields', () => {
    expect(() => cardTextOfTokens('"76561197960265729"\u0001"name"', null)).toThrow(/tokens/);
  });
});
