import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** An assertion is accepted only this long after the provider stamped its nonce. */
export const NONCE_MAX_AGE_SECONDS = 300;
/** Clocks disagree a little: a nonce stamped up to this far in the future is still taken. */
export const NONCE_MAX_SKEW_SECONDS = 60;

/**
 * Used response nonces, in Redis so every API process shares them. A nonce is remembered until it could no longer
 * pass the age check anyway, so the set stays as small as the sign-ins of the last few minutes.
 */
@Injectable()
export class NonceStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Marks the nonce used; false when it already was (SET NX: of two racing uses exactly one wins). */
  async consume(endpoint: string, nonce: string): Promise<boolean> {
    // Nonces are unique per provider; hashed so a long one costs a fixed-size key.
    const id = createHash('sha256').update(`${endpoint}\n${nonce}`).digest('hex');
    const ttl = NONCE_MAX_AGE_SECONDS + NONCE_MAX_SKEW_SECONDS;
    return (await this.redis.set(redisKey(this.config, 'openid-nonce', id), '1', 'EX', ttl, 'NX')) === 'OK';
  }
}

/** The nonce's timestamp in ms, or null when it does not start with one (`2026-11-23T10:44:01Z…`). */
export function nonceTime(nonce: string): number | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)/.exec(nonce);
  if (!match) return null;
  const time = Date.parse(match[1]);
  return Number.isNaN(time) ? null : time;
}
