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
  | { ok: true; key: ApiKeyEntity }
  | { ok: false; outcome: Exclude<AnalyticsOutcome, 'VALID'>; retryAfterSeconds?: number };

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
    const result = await this.evaluate(key, token, permitted);
    await this.usage.record(key.keyId, result.ok ? 'VALID' : result.outcome);
    return result;
  }

  private async evaluate(key: ApiKeyEntity, token: string, permitted: boolean): Promise<ApiKeyCheck> {
    if (key.secretHash !== hashSecret(token)) return { ok: false, outcome: 'INVALID' };
    if (key.revokedAt) return { ok: false, outcome: 'DISABLED' };
    if (!permitted) return { ok: false, outcome: 'INSUFFICIENT_PERMISSIONS' };
    const retryAfterSeconds = await this.rateLimit(key.keyId);
    if (retryAfterSeconds !== null) return { ok: false, outcome: 'RATE_LIMITED', retryAfterSeconds };
    return { ok: true, key };
  }

  /** Fixed one-minute windows in Redis, shared by every API process. Returns seconds to wait, or null. */
  private async rateLimit(keyId: string): Promise<number | null> {
    const window = Math.floor(Date.now() / 60_000);
    const counter = redisKey(this.config, 'ratelimit', keyId, window);
    const [[, count]] = (await this.redis.multi().incr(counter).expire(counter, 120).exec()) as [[null, number], unknown];
    if (count <= this.config.apiKeyRateLimitPerMinute) return null;
    return 60 - Math.floor((Date.now() % 60_000) / 1000);
  }
}
