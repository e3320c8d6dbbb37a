import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
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
export type ApiKeyCheck = { ok: true; key: ApiKeyEntity } | { ok: false; outcome: Extract<AnalyticsOutcome, 'INVALID' | 'DISABLED'> };

/** Issues, verifies, lists and revokes developer API keys. Only SHA-256 hashes of secrets are stored. */
@Injectable()
export class ApiKeyService {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly usage: ApiKeyUsageService,
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

  /** Whether the key still works (not revoked): a stream ticket it minted opens a stream only then. */
  isActive(keyId: string): Promise<boolean> {
    return this.keys.exists({ where: { keyId, revokedAt: IsNull() } });
  }

  /** The masked form shown in place of the secret: its public prefix and last four characters. */
  static masked(key: Pick<ApiKeyEntity, 'keyId' | 'lastFour'>): string {
    return `sk_${key.keyId.slice('key_'.length)}_…${key.lastFour}`;
  }

  /**
   * Verifies a bearer token that looks like an API key (for the API-key passport strategy) and counts a refusal
   * against the key. An accepted key is counted by the rate limiter (VALID or RATE_LIMITED, in the same Redis
   * step as its decision).
   */
  async check(token: string): Promise<ApiKeyCheck | null> {
    const match = API_KEY_PATTERN.exec(token);
    if (!match) return null;
    const key = await this.keys.findOne({ where: { keyId: `key_${match[1]}` } });
    if (!key) return { ok: false, outcome: 'INVALID' };
    const refusal = key.secretHash !== hashSecret(token) ? 'INVALID' : key.revokedAt ? 'DISABLED' : null;
    if (!refusal) return { ok: true, key };
    await this.usage.record(key.keyId, refusal);
    return { ok: false, outcome: refusal };
  }

  /** A valid key offered to an operation that takes user sessions only: counted, then refused by the guard. */
  recordInsufficient(keyId: string): Promise<void> {
    return this.usage.record(keyId, 'INSUFFICIENT_PERMISSIONS');
  }
}
