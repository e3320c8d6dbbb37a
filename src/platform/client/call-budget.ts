import type { Redis } from 'ioredis';
import { PlatformBudgetExceededError } from './platform.errors';

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
