import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiKeyUsageService } from '../api-key-usage.service';
import { SLIDING_WINDOW_LUA } from './sliding-window.lua';

/** Who a request is counted against. Anonymous callers and failed credentials are counted by client address. */
export type RateSubject =
  | { kind: 'api-key'; id: string }
  | { kind: 'session'; id: string }
  | { kind: 'anonymous'; id: string }
  | { kind: 'failed-credential'; id: string };

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window, i.e. until a slot frees. */
  resetSeconds: number;
  windowSeconds: number;
  /** Whose window decided: the subject's, or the guard's when that one was full (see `take`). */
  decidedBy: RateSubject;
}

type SlidingWindow = (
  windowKey: string,
  usageKey: string,
  guardKey: string,
  limit: number,
  windowMs: number,
  mode: 'take' | 'peek',
  member: string,
  usagePrefix: string,
  guardLimit: number | '',
) => Promise<[number, number, number, number]>;

/**
 * Rate limits for every caller, in Redis so that all API processes share them (see sliding-window.lua.ts for
 * the algorithm and why). Hand-written rather than rate-limiter-flexible: that library's Redis limiters count
 * fixed windows (a boundary burst passes twice the limit), and the API-key usage count has to land in the same
 * atomic step as the decision.
 */
@Injectable()
export class RateLimiter {
  private readonly slidingWindow: SlidingWindow;
  private sequence = 0;
  private readonly instance = randomBytes(4).toString('hex');

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly usage: ApiKeyUsageService,
  ) {
    // defineCommand runs the script by EVALSHA, loading it once per connection.
    redis.defineCommand('badgeStatsSlidingWindow', { numberOfKeys: 3, lua: SLIDING_WINDOW_LUA });
    const command = (redis as unknown as Record<string, SlidingWindow>).badgeStatsSlidingWindow;
    this.slidingWindow = command.bind(redis) as SlidingWindow;
  }

  limitOf(subject: RateSubject): number {
    const limits = this.config.rateLimits;
    const byKind: Record<RateSubject['kind'], number> = {
      'api-key': limits.apiKey,
      session: limits.session,
      anonymous: limits.anonymous,
      'failed-credential': limits.failedCredentials,
    };
    return byKind[subject.kind];
  }

  /**
   * Counts a request against its subject; an API key's request also counts as VALID or RATE_LIMITED in its usage.
   * With a `guard` (the failed-credential budget of the request's address) the same script first checks that the
   * guard has room: if not, nothing is counted and the decision is the guard's (`decidedBy`).
   */
  take(subject: RateSubject, guard?: RateSubject): Promise<RateDecision> {
    const usagePrefix = subject.kind === 'api-key' ? ApiKeyUsageService.fieldPrefix(subject.id) : '';
    return this.run(subject, 'take', usagePrefix, guard);
  }

  /** Whether a subject has room left, without counting anything (the failed-credential budget before a check). */
  peek(subject: RateSubject): Promise<RateDecision> {
    return this.run(subject, 'peek', '');
  }

  /** IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) describing a decision. */
  static headers(decision: RateDecision): Record<string, string> {
    return {
      'RateLimit-Policy': `${decision.limit};w=${decision.windowSeconds}`,
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
    };
  }

  private async run(subject: RateSubject, mode: 'take' | 'peek', usagePrefix: string, guard?: RateSubject): Promise<RateDecision> {
    const windowSeconds = this.config.rateLimits.windowSeconds;
    const windowKey = (of: RateSubject) => redisKey(this.config, 'ratelimit', of.kind, of.id);
    const [allowed, count, resetMs, guarded] = await this.slidingWindow(
      windowKey(subject),
      this.usage.pendingKey,
      guard ? windowKey(guard) : windowKey(subject),
      this.limitOf(subject),
      windowSeconds * 1000,
      mode,
      this.member(),
      usagePrefix,
      guard ? this.limitOf(guard) : '',
    );
    const decidedBy = guard && guarded === 1 ? guard : subject;
    const limit = this.limitOf(decidedBy);
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
      windowSeconds,
      decidedBy,
    };
  }

  /** Unique per counted request across processes: two requests in one millisecond are two entries. */
  private member(): string {
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    return `${this.instance}:${this.sequence}`;
  }
}
