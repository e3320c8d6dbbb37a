import { CARD_TEXT_HELD_MS, CardTextCache, SentCard } from '../../src/account-records/cards/card-text-cache';

const written = (id: number, xmin: string, name = `n${id}`): SentCard => [id, xmin, null, `{"name":"${name}","roles":`, '}'];
const kept = (id: number, xmin: string): SentCard => [id, xmin, null];

describe('CardTextCache', () => {
  it('should send the versions it holds and rebuild a card from a held text with the roles sent', () => {
    const cache = new CardTextCache(10);
    const first = cache.lookup([1, 2]);
    expect(first.versions).toEqual([null, null]);
    expect(first.text(written(1, '100'))).toBe('{"name":"n1","roles":[]}');
    const second = cache.lookup([1, 2]);
    expect(second.versions).toEqual(['100', null]);
    expect(second.text([1, '100', [{ role: 'staff', rating: 1, extras: null }]])).toBe(
      '{"name":"n1","roles":[{"role":"staff","rating":1,"extras":null}]}',
    );
  });

  it('should replace a text written for a newer version', () => {
    const cache = new CardTextCache(10);
    cache.lookup([1]).text(written(1, '100', 'old'));
    expect(cache.lookup([1]).text(written(1, '200', 'new'))).toBe('{"name":"new","roles":[]}');
    expect(cache.lookup([1]).versions).toEqual(['200']);
    expect(cache.size).toBe(1);
  });

  it('should keep at most its capacity, dropping the least recently used first', () => {
    const cache = new CardTextCache(2);
    for (const id of [1, 2, 3]) cache.lookup([id]).text(written(id, '7'));
    expect(cache.size).toBe(2);
    expect(cache.lookup([1, 2, 3]).versions).toEqual([null, '7', '7']);
    // Card 2 was just sent again, so card 3 is now the least recently used.
    cache.lookup([2]);
    cache.lookup([4]).text(written(4, '7'));
    expect(cache.lookup([2, 3, 4]).versions).toEqual(['7', null, '7']);
  });

  it('should stay bounded under churn, holding the texts written last', () => {
    const cache = new CardTextCache(1_000);
    for (let n = 0; n < 20_000; n++) cache.lookup([n % 5_000]).text(written(n % 5_000, String(n)));
    expect(cache.size).toBe(1_000);
    // The last 1,000 writes were of accounts 4,000–4,999, at versions 19,000–19,999.
    expect(cache.lookup([3_999, 4_000, 4_999]).versions).toEqual([null, '19000', '19999']);
  });

  it('should not send a version held for longer than CARD_TEXT_HELD_MS', () => {
    let now = 1_000_000;
    const cache = new CardTextCache(10, () => now);
    cache.lookup([1]).text(written(1, '100'));
    now += CARD_TEXT_HELD_MS;
    expect(cache.lookup([1]).versions).toEqual(['100']);
    now += 1;
    expect(cache.lookup([1]).versions).toEqual([null]);
  });

  it('should still use a text evicted after its version was sent', () => {
    const cache = new CardTextCache(1);
    cache.lookup([1]).text(written(1, '100'));
    const sent = cache.lookup([1]);
    // Another statement's card evicts card 1 before this statement's answer arrives.
    cache.lookup([2]).text(written(2, '100'));
    expect(sent.text(kept(1, '100'))).toBe('{"name":"n1","roles":[]}');
  });

  it('should refuse a card sent without text for a version it did not send', () => {
    const cache = new CardTextCache(10);
    expect(() => cache.lookup([1]).text(kept(1, '100'))).toThrow(/version not held/);
  });
});
