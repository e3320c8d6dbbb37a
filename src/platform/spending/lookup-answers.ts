import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** What the platform said about an account the service does not track. */
export type AccountPresence = 'public' | 'private' | 'missing';

/** A public answer is reused for a shorter while: the account may turn private, and its row is created anyway. */
const PUBLIC_TTL_SECONDS = 600;

/**
 * The platform's answers to look-ups of untracked accounts and vanity names, reused for a while (part of platform
 * spending, see platform-spending.ts): "no such account" and "private" for `PLATFORM_NEGATIVE_CACHE_SECONDS`
 * (a stranger asking again and again about ids that do not exist costs no call after the first), "public" for
 * ten minutes. One Redis string per account or vanity, shared by every API process.
 */
@Injectable()
export class LookupAnswers {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async presence(accountId: number): Promise<AccountPresence | null> {
    const value = await this.redis.get(this.key('account', accountId));
    return value === 'public' || value === 'private' || value === 'missing' ? value : null;
  }

  async rememberPresence(accountId: number, presence: AccountPresence): Promise<void> {
    await this.put(this.key('account', accountId), presence, presence === 'public' ? PUBLIC_TTL_SECONDS : this.negativeTtl());
  }

  /** The account id a platform vanity names: a number, 'missing' when none does, null when not asked lately. */
  async vanity(name: string): Promise<number | 'missing' | null> {
    const value = await this.redis.get(this.key('vanity', name.toLowerCase()));
    if (value === null) return null;
    return value === 'missing' ? 'missing' : Number(value);
  }

  async rememberVanity(name: string, accountId: number | null): Promise<void> {
    const key = this.key('vanity', name.toLowerCase());
    await this.put(key, accountId === null ? 'missing' : String(accountId), accountId === null ? this.negativeTtl() : PUBLIC_TTL_SECONDS);
  }

  private negativeTtl(): number {
    return this.config.platform.negativeCacheSeconds;
  }

  private async put(key: string, value: string, ttlSeconds: number): Promise<void> {
    if (ttlSeconds > 0) await this.redis.set(key, value, 'EX', ttlSeconds);
  }

  private key(kind: string, subject: string | number): string {
    return redisKey(this.config, 'platform', 'answers', kind, subject);
  }
}
