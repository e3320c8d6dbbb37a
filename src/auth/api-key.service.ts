import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { IsNull, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { ApiKeyUsageService } from './api-key-usage.service';
import { AnalyticsOutcome } from './entities/api-key-usage.entity';
import { ApiKeyEntity, DeveloperAppEnvironment } from './entities/api-key.entity';
import { API_KEY_PATTERN, hashSecret, randomHex, randomToken } from './secrets';

export interface NewApiKey {
  accountId: number;
  name: string;
  description?: string;
  environment?: DeveloperAppEnvironment;
}

/** Why an API key was refused; every refusal of a recognisable key is counted against it. */
export type ApiKeyCheck =
  { ok: true; key: ApiKeyEntity } | { ok: false; outcome: Exclude<AnalyticsOutcome, 'VALID'>; retryAfterSeconds?: number };

/** INCR the minute's counter (expiring it), then count the request as VALID or RATE_LIMITED in the usage hash. */
const RATE_LIMIT_AND_COUNT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], 120) end
local outcome = 'RATE_LIMITED'
if count <= tonumber(ARGV[1]) then outcome = 'VALID' end
redis.call('HINCRBY', KEYS[2], ARGV[2] .. outcome, 1)
return count`;

/** Issues, verifies, lists and revokes developer API keys. Only SHA-256 hashes of secrets are stored. */
@Injectable()
export class ApiKeyService {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly usage: ApiKeyUsageService,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates a key and returns its secret, which is never retrievable again. */
  async create(input: NewApiKey): Promise<{ key: ApiKeyEntity; secret: string }> {
    const idHex = randomHex(6);
    const secret = `sk_${idHex}_${randomToken(32)}`;
    const key = await this.keys.save(
      this.keys.create({
        keyId: `key_${idHex}`,
        accountId: input.accountId,
        name: input.name,
        description: input.description ?? '',
        environment: input.environment ?? 'production',
        secretHash: hashSecret(secret),
        lastFour: secret.slice(-4),
        revokedAt: null,
      }),
    );
    return { key, secret };
  }

  listForAccount(accountId: number, includeRevoked = false): Promise<ApiKeyEntity[]> {
    return this.keys.find({
      where: includeRevoked ? { accountId } : { accountId, revokedAt: IsNull() },
      order: { createdAt: 'ASC' },
    });
  }

  listAll(): Promise<ApiKeyEntity[]> {
    return this.keys.find({ order: { createdAt: 'ASC' } });
  }

  async revoke(keyId: string): Promise<boolean> {
    const result = await this.keys.update({ keyId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /** The masked form shown in place of the secret: its public prefix and last four characters. */
  static masked(key: Pick<ApiKeyEntity, 'keyId' | 'lastFour'>): string {
    return `sk_${key.keyId.slice('key_'.length)}_…${key.lastFour}`;
  }

  /** Verifies a bearer token that looks like an API key, applies the per-key rate limit and counts the outcome. */
  async check(token: string, permitted: boolean): Promise<ApiKeyCheck | null> {
    const match = API_KEY_PATTERN.exec(token);
    if (!match) return null;
    const key = await this.keys.findOne({ where: { keyId: `key_${match[1]}` } });
    if (!key) return { ok: false, outcome: 'INVALID' };
    return this.evaluate(key, token, permitted);
  }

  private async evaluate(key: ApiKeyEntity, token: string, permitted: boolean): Promise<ApiKeyCheck> {
    let refusal: Exclude<AnalyticsOutcome, 'VALID' | 'RATE_LIMITED'> | null = null;
    if (key.secretHash !== hashSecret(token)) refusal = 'INVALID';
    else if (key.revokedAt) refusal = 'DISABLED';
    else if (!permitted) refusal = 'INSUFFICIENT_PERMISSIONS';
    if (refusal) {
      await this.usage.record(key.keyId, refusal);
      return { ok: false, outcome: refusal };
    }
    const retryAfterSeconds = await this.rateLimitAndCount(key.keyId);
    if (retryAfterSeconds !== null) return { ok: false, outcome: 'RATE_LIMITED', retryAfterSeconds };
    return { ok: true, key };
  }

  /**
   * One Redis round trip per accepted key: a fixed one-minute window shared by every API process, and the
   * request counted as VALID or RATE_LIMITED. Returns seconds to wait, or null.
   */
  private async rateLimitAndCount(keyId: string): Promise<number | null> {
    const now = Date.now();
    const counter = redisKey(this.config, 'ratelimit', keyId, Math.floor(now / 60_000));
    const count = (await this.redis.eval(
      RATE_LIMIT_AND_COUNT,
      2,
      counter,
      this.usage.pendingKey,
      this.config.apiKeyRateLimitPerMinute,
      ApiKeyUsageService.fieldPrefix(keyId, new Date(now)),
    )) as number;
    if (count <= this.config.apiKeyRateLimitPerMinute) return null;
    return 60 - Math.floor((now % 60_000) / 1000);
  }
}
