/**
 * # Platform spending: who may spend the daily call budget
 *
 * The platform allows `PLATFORM_DAILY_CALL_BUDGET` Web API calls a day (CallBudget counts the calls made). Requests
 * spend it: a look-up of an account the service does not track (`account.subscribe`, `account.queueUpdate`), and
 * every update a request queues (`account.queueUpdate`, `account.refreshInventory`: UPDATE_CALLS each, made later by
 * the worker). Without a bound per account, one account's ten keys could queue updates until the day's budget is
 * gone and no refresh runs until midnight. So before a request spends calls it *reserves* them here:
 *
 * - **Per account**: one account, whatever key or session it calls with, reserves at most
 *   `PLATFORM_ACCOUNT_HOURLY_PERCENT` of the daily budget in any rolling hour (a sliding log in Redis: one sorted
 *   set per account of its reservations, each weighted by its calls). Past it: 429 with `Retry-After`, the time
 *   until enough of the hour's reservations have aged out.
 * - **All requests together** reserve at most what `PLATFORM_WORKER_RESERVE_PERCENT` leaves of each UTC day (one
 *   counter per day): the rest is the worker's, for the updates already queued, their retries and the ones it
 *   starts itself. Past it: 503 with `Retry-After` until the next UTC day.
 *
 * A reservation is settled with the calls actually made (a look-up answered from the cache, an update that was
 * already queued: fewer, often none) and the difference is given back. The estimate is the nominal count; a retried
 * call spends the platform's budget without being reserved, which the worker's share absorbs.
 */
import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { serviceUnavailable, tooManyRequests } from '../../common/problem/problem.exception';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** Web API calls of one account update: summaries, bans, badges, games, friends, groups (inventory is community). */
export const UPDATE_CALLS = 6;
/** One look-up of an account the service does not track (GetPlayerSummaries), or of a vanity (ResolveVanityURL). */
export const LOOKUP_CALLS = 1;

const HOUR_MS = 3_600_000;
/** Day counters outlive their day a little, as CallBudget's do. */
const DAY_TTL_SECONDS = 2 * 86_400;

/**
 * KEYS[1] the account's log, KEYS[2] today's requested counter. ARGV: calls, the account's limit, window (ms), a unique
 * member, the requests' daily limit. Returns {0} when reserved, {1, ms until enough frees} past the account's limit,
 * {2} past the requests' share of the day. A member is `<id>:<calls>`: the log sums its members' weights.
 */
const RESERVE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n, limit, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local used = 0
for i = 1, #entries, 2 do used = used + tonumber(string.match(entries[i], ':(%d+)$')) end
if used + n > limit then
  local need, freed = used + n - limit, 0
  for i = 1, #entries, 2 do
    freed = freed + tonumber(string.match(entries[i], ':(%d+)$'))
    if freed >= need then return {1, tonumber(entries[i + 1]) + window - now} end
  end
  return {1, window}
end
if tonumber(redis.call('GET', KEYS[2]) or '0') + n > tonumber(ARGV[5]) then return {2, 0} end
redis.call('INCRBY', KEYS[2], n)
redis.call('EXPIRE', KEYS[2], ${DAY_TTL_SECONDS})
redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. n)
redis.call('PEXPIRE', KEYS[1], window)
return {0, 0}`;

/**
 * KEYS as RESERVE_LUA; ARGV: the member's id, reserved, actual. Replaces the member's weight by `actual` (removes it at
 * 0) at the same time, and gives the difference back to the day's counter.
 */
const SETTLE_LUA = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1] .. ':' .. ARGV[2])
if not score then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1] .. ':' .. ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('ZADD', KEYS[1], score, ARGV[1] .. ':' .. ARGV[3]) end
local back = tonumber(ARGV[2]) - tonumber(ARGV[3])
if back > 0 and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DECRBY', KEYS[2], back) end
return 1`;

type ReserveCommand = (log: string, day: string, ...args: (string | number)[]) => Promise<[number, number]>;
type SettleCommand = (log: string, day: string, ...args: (string | number)[]) => Promise<number>;

/** Calls reserved by one request; `settle` with what was spent gives the rest back (at most once). */
export class Reservation {
  private settled = false;

  constructor(
    readonly calls: number,
    private readonly giveBack: (actual: number) => Promise<void>,
  ) {}

  async settle(actual: number): Promise<void> {
    if (this.settled || actual >= this.calls) return;
    this.settled = true;
    await this.giveBack(Math.max(0, actual));
  }
}

@Injectable()
export class PlatformSpending {
  private readonly reserveCommand: ReserveCommand;
  private readonly settleCommand: SettleCommand;
  private readonly instance = randomBytes(4).toString('hex');
  private sequence = 0;
  /** Calls one account may reserve in any rolling hour, and all requests in a day. */
  readonly accountHourlyLimit: number;
  readonly requestsDailyLimit: number;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const { dailyCallBudget, accountHourlyPercent, workerReservePercent } = config.platform;
    this.accountHourlyLimit = Math.floor((dailyCallBudget * accountHourlyPercent) / 100);
    this.requestsDailyLimit = Math.floor((dailyCallBudget * (100 - workerReservePercent)) / 100);
    redis.defineCommand('badgeStatsReservePlatformCalls', { numberOfKeys: 2, lua: RESERVE_LUA });
    redis.defineCommand('badgeStatsSettlePlatformCalls', { numberOfKeys: 2, lua: SETTLE_LUA });
    const commands = redis as unknown as Record<string, ReserveCommand & SettleCommand>;
    this.reserveCommand = commands.badgeStatsReservePlatformCalls.bind(redis) as ReserveCommand;
    this.settleCommand = commands.badgeStatsSettlePlatformCalls.bind(redis) as SettleCommand;
  }

  /**
   * Reserves `calls` for a request of `accountId` (the principal's account, whichever credential it used). Throws 429
   * past the account's hourly share, 503 past the requests' share of the day; both with Retry-After.
   */
  async reserve(accountId: number, calls: number, now = new Date()): Promise<Reservation> {
    const log = this.logKey(accountId);
    const day = this.dayKey(now);
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    const id = `${this.instance}.${this.sequence}`;
    const [outcome, waitMs] = await this.reserveCommand(log, day, calls, this.accountHourlyLimit, HOUR_MS, id, this.requestsDailyLimit);
    if (outcome === 1)
      throw tooManyRequests(
        `This account has used its share of the platform's call budget (${this.accountHourlyLimit} calls an hour, all its keys and sessions together); retry later.`,
        waitMs / 1000,
      );
    if (outcome === 2)
      throw serviceUnavailable(
        'The platform call budget that requests may use today is spent (the rest is kept for queued refreshes); retry tomorrow (UTC).',
        secondsToNextUtcDay(now),
      );
    return new Reservation(calls, async (actual) => {
      await this.settleCommand(log, day, id, calls, actual);
    });
  }

  /** Calls the account has reserved in the last hour (for tests and diagnostics). */
  async reservedThisHour(accountId: number): Promise<number> {
    const members = await this.redis.zrangebyscore(this.logKey(accountId), Date.now() - HOUR_MS, '+inf');
    return members.reduce((sum, member) => sum + Number(member.slice(member.lastIndexOf(':') + 1)), 0);
  }

  private logKey(accountId: number): string {
    return redisKey(this.config, 'platform', 'spent-by', accountId);
  }

  private dayKey(now: Date): string {
    return redisKey(this.config, 'platform', 'requested', now.toISOString().slice(0, 10));
  }
}

/** Seconds from `now` to the next 00:00 UTC (at least 1). */
export function secondsToNextUtcDay(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
