import Redis from 'ioredis';
import { REDIS_URL } from '../../support/stores';
import { MarketCallPace } from 'src/platform/client/call-budget';
import { PlatformMarketBusyError } from 'src/platform/client/platform-client';

describe('MarketCallPace', () => {
  const redis = new Redis(REDIS_URL);
  const other = new Redis(REDIS_URL);
  const root = `test:market-pace:${process.pid}:${Date.now()}`;
  let n = 0;
  const key = (): string => `${root}:${++n}`;

  afterAll(async () => {
    const keys = await redis.keys(`${root}:*`);
    if (keys.length) await redis.del(...keys);
    await Promise.all([redis.quit(), other.quit()]);
  });

  it('should space calls evenly across clients, with no burst at the start', async () => {
    // 600 a minute: one call every 100 ms, whichever connection (process) asks.
    const k = key();
    const paces = [new MarketCallPace(redis, 600, k), new MarketCallPace(other, 600, k)];
    // Connect both clients and load the script first: under a loaded CI machine the first connection (not the pace)
    // took ~450 ms, which the clock below would have charged to the first call.
    await Promise.all([redis, other].map((client, i) => new MarketCallPace(client, 600, `${k}:warm:${i}`).acquire()));
    const started = Date.now();
    const served: number[] = [];
    await Promise.all(Array.from({ length: 6 }, (_, i) => paces[i % 2].acquire().then(() => served.push(Date.now() - started))));
    served.sort((a, b) => a - b);
    // The first is served at once (a loaded machine may delay its timer, not its slot).
    expect(served[0]).toBeLessThan(250);
    // Six calls take five spacings: ~500 ms, never less (a burst would end far sooner). Gaps between wake-ups are
    // not asserted: a timer delayed by load wakes late, and the next one on time, closer than a spacing.
    expect(served[5]).toBeGreaterThanOrEqual(480);
    expect(served[3]).toBeGreaterThanOrEqual(280);
  });

  it('should tell how long queued calls take, and refuse a slot further off than the longest wait', async () => {
    const k = key();
    const pace = new MarketCallPace(redis, 60, k, 1500); // one a second, waits of at most 1.5 s
    expect(await pace.timeForCalls(3)).toBe(3000);
    await pace.acquire(); // served at once; the next slot is a second away
    expect(await pace.timeForCalls(1)).toBeGreaterThan(1900);
    const second = pace.acquire(); // its slot is ~1 s away: it waits
    await expect(pace.acquire()).rejects.toBeInstanceOf(PlatformMarketBusyError); // ~2 s away: over 1.5 s
    await second;
  });
});
