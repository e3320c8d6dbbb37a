/**
 * # Action throttles
 *
 * Limits on particular actions, apart from the per-caller request limits of `../rate-limit`: sign-in attempts per
 * client address, developer-app changes per account. Each is a sliding-window log in Redis (one sorted set of the
 * action's times per subject, trimmed, counted and added to by one Lua step on Redis's clock), so no stretch of the
 * window holds more than the limit wherever it falls, and every API process shares the count.
 */
import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { tooManyRequests } from '../../common/problem/problem.exception';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** KEYS[1] the subject's log; ARGV limit, window (ms), a unique member. Returns {allowed, ms until a slot frees}. */
const THROTTLE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
`;

type ThrottleCommand = (key: string, limit: number, windowMs: number, member: string) => Promise<[number, number]>;

export interface ThrottleRule {
  /** Names the action in the Redis key, e.g. `login`. */
  action: string;
  limit: number;
  windowSeconds: number;
  /** The 429's detail. */
  detail: string;
}

@Injectable()
export class ActionThrottle {
  private readonly command: ThrottleCommand;
  private readonly instance = randomBytes(4).toString('hex');
  private sequence = 0;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    redis.defineCommand('badgeStatsActionThrottle', { numberOfKeys: 1, lua: THROTTLE_LUA });
    this.command = (redis as unknown as Record<string, ThrottleCommand>).badgeStatsActionThrottle.bind(redis) as ThrottleCommand;
  }

  /** Counts one action of `subject`; past the rule's limit nothing is counted and the answer is 429 with Retry-After. */
  async take(rule: ThrottleRule, subject: string | number): Promise<void> {
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    const key = redisKey(this.config, 'throttle', rule.action, subject);
    const [allowed, resetMs] = await this.command(key, rule.limit, rule.windowSeconds * 1000, `${this.instance}:${this.sequence}`);
    if (allowed !== 1) throw tooManyRequests(rule.detail, Math.max(1, resetMs / 1000));
  }
}
