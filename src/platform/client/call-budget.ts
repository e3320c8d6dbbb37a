import type { Redis } from 'ioredis';
import { PlatformBudgetExceededError, PlatformMarketBusyError } from './platform.errors';
import { sleep } from '../../common/scheduling/sleep';

/**
 * Atomically: add n to today's counter, give a fresh counter its TTL, and undo the add if it would pass the limit.
 * The TTL is set before the limit check so a counter created by a refused take still expires.
 */
const TAKE_SCRIPT = `
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
if used > tonumber(ARGV[2]) then
  redis.call('DECRBY', KEYS[1], ARGV[1])
  return -1
end
return used
`;

/** Counters outlive their day a little so a late reader still sees yesterday's total. */
const COUNTER_TTL_SEC = 2 * 86_400;

/**
 * The platform's daily Web API allowance (about 100,000 calls per key), shared by every process through one Redis
 * counter per UTC day. Each Web API request takes one unit before it is sent; community calls take none.
 */
export class CallBudget {
  constructor(
    private readonly redis: Redis,
    readonly dailyLimit: number,
    private readonly keyPrefix = 'platform:budget:',
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves n calls; throws PlatformBudgetExceededError (reserving nothing) if that would pass the limit. */
  async take(n = 1): Promise<void> {
    if (!Number.isInteger(n) || n < 1) throw new RangeError('take(n) needs a positive integer');
    const result = await this.redis.eval(TAKE_SCRIPT, 1, this.key(), n, this.dailyLimit, COUNTER_TTL_SEC);
    if (Number(result) < 0) throw new PlatformBudgetExceededError(this.dailyLimit);
  }

  /** Calls taken today (UTC). */
  async used(): Promise<number> {
    return Number((await this.redis.get(this.key())) ?? 0);
  }

  async remaining(): Promise<number> {
    return Math.max(0, this.dailyLimit - (await this.used()));
  }

  /** Today's counter key, e.g. "platform:budget:2026-11-22". */
  key(): string {
    return this.keyPrefix + new Date(this.now()).toISOString().slice(0, 10);
  }
}

/**
 * Atomically, on Redis's clock: the next free slot is max(now, the stored one); refuse (-1) when it is further off
 * than the caller will wait, else store the slot after it and return the wait in ms. The key expires once idle.
 */
const PACE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local spacing = tonumber(ARGV[1])
local at = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
if at - now > tonumber(ARGV[2]) then return -1 end
redis.call('SET', KEYS[1], at + spacing, 'PX', at - now + spacing + 1000)
return at - now
`;

/**
 * The market's own limit (priceoverview allows a few calls a minute per client, far below the Web API's daily
 * allowance), shared by every process through one Redis key: calls are spaced evenly, `60 s / callsPerMinute`
 * apart, so no burst ever reaches the market whatever the number of callers. A caller reserves the next slot and
 * sleeps until it; a slot further off than `maxWaitMs` is refused with PlatformMarketBusyError.
 */
export class MarketCallPace {
  readonly spacingMs: number;

  constructor(
    private readonly redis: Redis,
    readonly callsPerMinute: number,
    private readonly key = 'platform:market-pace',
    private readonly maxWaitMs = 120_000,
  ) {
    this.spacingMs = Math.max(1, Math.floor(60_000 / callsPerMinute));
  }

  /**
   * Waits for this caller's slot (one market call); throws PlatformMarketBusyError when the queue is too long.
   * An aborted wait gives its slot up unused: the pace stays conservative.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    const wait = Number(await this.redis.eval(PACE_SCRIPT, 1, this.key, this.spacingMs, this.maxWaitMs));
    if (wait < 0) throw new PlatformMarketBusyError(this.callsPerMinute);
    if (wait > 0) await sleep(wait, signal);
  }

  /** How long n calls reserved now would take to be served, counting the calls already queued. */
  async timeForCalls(n: number): Promise<number> {
    const [[, stored], [, time]] = (await this.redis.multi().get(this.key).time().exec()) as [
      [null, string | null],
      [null, [string, string]],
    ];
    const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
    return Math.max(0, Number(stored ?? 0) - now) + n * this.spacingMs;
  }
}
