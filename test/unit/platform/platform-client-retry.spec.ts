import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { CallBudget, MarketCallPace } from 'src/platform/client/call-budget';
import {
  PlatformBudgetExceededError,
  PlatformClient,
  PlatformHttpError,
  PlatformUnavailableError,
} from 'src/platform/client/platform-client';
import { REDIS_URL } from '../../support/stores';

/**
 * Retry, timeout, budget and redaction behaviour against a tiny scripted server. The steamid parameter picks the
 * script: "429" and "503" fail twice then succeed, "404" echoes the URL (key included) with 404, "slow" never
 * answers in time, "down" always answers 503. Market calls pick theirs by `market_hash_name`.
 */

const KEY = 'SUPER-SECRET-KEY-123';

describe('PlatformClient retries and failures', () => {
  const hits = new Map<string, number>();
  let server: Server;
  let base = '';
  const redis = new Redis(REDIS_URL);
  const prefix = `test:platform-retry:${process.pid}:${Date.now()}:`;

  const client = (extra: Partial<ConstructorParameters<typeof PlatformClient>[0]> = {}): PlatformClient =>
    new PlatformClient({ apiUrl: base, communityUrl: base, apiKey: KEY, timeoutMs: 1000, maxRetries: 3, retryBaseMs: 5, ...extra });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const script = url.searchParams.get('steamid') ?? url.searchParams.get('market_hash_name') ?? url.pathname;
      const n = (hits.get(script) ?? 0) + 1;
      hits.set(script, n);
      const ok = (): void => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ response: { player_level: 42 } }));
      };
      if (script === '429') {
        if (n <= 2) {
          res.writeHead(429, { 'Retry-After': '0' });
          res.end();
        } else ok();
      } else if (script === '503') {
        if (n <= 2) {
          res.writeHead(503);
          res.end('busy');
        } else ok();
      } else if (script === '404') {
        res.writeHead(404, { 'Content-Type': 'text/html' });
        res.end(`<html>not found: ${req.url}</html>`);
      } else if (script === 'slow') {
        setTimeout(ok, 400);
      } else if (script === 'down' || script === 'market-down') {
        res.writeHead(503);
        res.end();
      } else ok();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const errorOf = async (p: Promise<unknown>): Promise<Error> => {
    try {
      await p;
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected a rejection');
  };
  const expectNoKey = (e: Error): void => {
    const text = `${e.message}\n${e.stack}\n${JSON.stringify(e)}\n${String((e as PlatformHttpError).bodySnippet ?? '')}`;
    expect(text).not.toContain(KEY);
  };

  it('should retry 429 (honouring Retry-After) and succeed on the third attempt', async () => {
    expect(await client().getSteamLevel('429')).toBe(42);
    expect(hits.get('429')).toBe(3);
  });

  it('should retry 503 and succeed on the third attempt', async () => {
    expect(await client().getSteamLevel('503')).toBe(42);
    expect(hits.get('503')).toBe(3);
  });

  it('should not retry a 404 and throw a PlatformHttpError without the key', async () => {
    const e = await errorOf(client().getSteamLevel('404'));
    expect(e).toBeInstanceOf(PlatformHttpError);
    expect((e as PlatformHttpError).status).toBe(404);
    expect(hits.get('404')).toBe(1);
    expect((e as PlatformHttpError).bodySnippet).toContain('key=[REDACTED]');
    expectNoKey(e);
  });

  it('should time out, retry, then give up with PlatformUnavailableError', async () => {
    const started = Date.now();
    const e = await errorOf(client({ timeoutMs: 80, maxRetries: 1 }).getSteamLevel('slow'));
    expect(e).toBeInstanceOf(PlatformUnavailableError);
    expect((e as PlatformUnavailableError).attempts).toBe(2);
    expect((e as PlatformUnavailableError).lastStatus).toBeNull();
    expect(e.message).toContain('timeout');
    expect(hits.get('slow')).toBe(2);
    expect(Date.now() - started).toBeLessThan(1000);
    expectNoKey(e);
  });

  it('should give up after maxRetries on persistent 5xx', async () => {
    const e = await errorOf(client({ maxRetries: 2 }).getSteamLevel('down'));
    expect(e).toBeInstanceOf(PlatformUnavailableError);
    expect((e as PlatformUnavailableError).lastStatus).toBe(503);
    expect(hits.get('down')).toBe(3);
    expectNoKey(e);
  });

  it('should report network errors as unavailable without the key', async () => {
    const dead = new PlatformClient({
      apiUrl: 'http://127.0.0.1:1',
      communityUrl: base,
      apiKey: KEY,
      timeoutMs: 500,
      maxRetries: 1,
      retryBaseMs: 1,
    });
    const e = await errorOf(dead.getSteamLevel('1'));
    expect(e).toBeInstanceOf(PlatformUnavailableError);
    expect(e.message).toContain('network error');
    expectNoKey(e);
  });

  it('should stop at the daily budget before sending, and not charge community calls', async () => {
    const budget = new CallBudget(redis, 2, `${prefix}client:`);
    const c = client({ budget });
    expect(await c.getSteamLevel('budget')).toBe(42);
    expect(await c.getSteamLevel('budget')).toBe(42);
    const e = await errorOf(c.getSteamLevel('budget'));
    expect(e).toBeInstanceOf(PlatformBudgetExceededError);
    expect(hits.get('budget')).toBe(2);
    await c.queryLocations().catch(() => undefined);
    expect(await budget.used()).toBe(2);
  });

  it('should abandon a market call, its pace wait and its retries as soon as its signal is aborted', async () => {
    const marketPace = new MarketCallPace(redis, 600, `${prefix}pace`); // 100 ms apart
    const c = client({ marketPace, retryBaseMs: 1000 });
    const controller = new AbortController();
    const started = Date.now();
    const call = c.getMarketPrice('market-down', 1, controller.signal);
    setTimeout(() => controller.abort(new Error('stopping')), 300);
    expect((await errorOf(call)).message).toBe('stopping');
    expect(Date.now() - started).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // One attempt, then the backoff it was sleeping through was cut short: no retry went out.
    expect(hits.get('market-down')).toBe(1);
  });
});
