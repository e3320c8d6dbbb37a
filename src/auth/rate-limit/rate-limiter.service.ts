import { Inject, Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { perTurnLoader } from '../../common/batching/per-turn-loader';
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
  usagePrefix: string,
  guardLimit: number | '',
  ...members: string[]
) => Promise<[number, number, number, number]>;

/** A take asked for: who is counted, and whose failed-credential budget must have room (see `take`). */
interface TakeAsk {
  subject: RateSubject;
  guard?: RateSubject;
}

/** At most this many takes of one turn go to Redis together (the script's ZADD gets two arguments per take). */
export const TAKE_BATCH_MAX = 64;

/**
 * Rate limits for every caller, in Redis so that all API processes share them (see sliding-window.lua.ts for
 * the algorithm and why). Hand-written rather than rate-limiter-flexible: that library's Redis limiters count
 * fixed windows (a boundary burst passes twice the limit), and the API-key usage count has to land in the same
 * atomic step as the decision.
 *
 * The takes asked during one turn of the event loop are sent together (DataLoader, scheduled on setImmediate), and
 * the takes of one subject (and guard) among them share one script run, which decides them as one run each would,
 * one after another in arrival order; the runs go out (and Redis runs them) in the order of their first takes. A
 * busy API key's requests arrive several per turn: a script run each cost Redis ~24 µs and the API a command and a
 * reply each, a quarter of the CPU `account.getInfo` adds to `/health` (docs/performance-history.md, "Rate-limit
 * takes of a turn in one script run").
 */
@Injectable()
export class RateLimiter {
  private readonly slidingWindow: SlidingWindow;
  private readonly takes: DataLoader<TakeAsk, RateDecision>;
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
    this.takes = perTurnLoader((asks: readonly TakeAsk[]) => this.takeAll(asks), TAKE_BATCH_MAX);
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
    return this.takes.load({ subject, guard });
  }

  /** Whether a subject has room left, without counting anything (the failed-credential budget before a check). */
  async peek(subject: RateSubject): Promise<RateDecision> {
    const [counted, , resetMs] = await this.run({ subject }, 'peek', []);
    return this.decision(subject, counted < this.limitOf(subject), counted, resetMs);
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

  /** The takes of one turn: one script run per subject and guard, all sent at once (see the class's comment). */
  private async takeAll(asks: readonly TakeAsk[]): Promise<(RateDecision | Error)[]> {
    const groups = new Map<string, number[]>();
    asks.forEach(({ subject, guard }, at) => {
      const group = `${subject.kind}\n${subject.id}\n${guard?.kind ?? ''}\n${guard?.id ?? ''}`;
      const members = groups.get(group);
      if (members) members.push(at);
      else groups.set(group, [at]);
    });
    const out: (RateDecision | Error)[] = new Array(asks.length);
    await Promise.all(
      [...groups.values()].map(async (ats) => {
        const ask = asks[ats[0]];
        try {
          const [counted, taken, resetMs, guarded] = await this.run(
            ask,
            'take',
            ats.map(() => this.member()),
          );
          if (guarded === 1) {
            const refusal = this.decision(ask.guard!, false, counted, resetMs);
            for (const at of ats) out[at] = refusal;
          } else {
            // As one run each in arrival order: the first `taken` were allowed, each counting those before it.
            ats.forEach((at, i) => {
              out[at] = this.decision(ask.subject, i < taken, counted + Math.min(i + 1, taken), resetMs);
            });
          }
        } catch (error) {
          for (const at of ats) out[at] = error instanceof Error ? error : new Error(String(error));
        }
      }),
    );
    return out;
  }

  private run({ subject, guard }: TakeAsk, mode: 'take' | 'peek', members: string[]): Promise<[number, number, number, number]> {
    const windowKey = (of: RateSubject) => redisKey(this.config, 'ratelimit', of.kind, of.id);
    const usagePrefix = mode === 'take' && subject.kind === 'api-key' ? ApiKeyUsageService.fieldPrefix(subject.id) : '';
    return this.slidingWindow(
      windowKey(subject),
      this.usage.pendingKey,
      guard ? windowKey(guard) : windowKey(subject),
      this.limitOf(subject),
      this.config.rateLimits.windowSeconds * 1000,
      mode,
      usagePrefix,
      guard ? this.limitOf(guard) : '',
      ...members,
    );
  }

  private decision(decidedBy: RateSubject, allowed: boolean, counted: number, resetMs: number): RateDecision {
    const limit = this.limitOf(decidedBy);
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - counted),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
      windowSeconds: this.config.rateLimits.windowSeconds,
      decidedBy,
    };
  }

  /** Unique per counted request across processes: two requests in one millisecond are two entries. */
  private member(): string {
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    return `${this.instance}:${this.sequence}`;
  }
}
