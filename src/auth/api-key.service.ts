import { GRANTED_VALUE_SQL } from '../account-records/resources/account-resources';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ChangeFeed } from '../change-feed/change-feed';
import { ApiKeyUsageService } from './api-key-usage.service';
import { AnalyticsOutcome } from './entities/api-key-usage.entity';
import { ApiKeyEntity, DeveloperAppEnvironment } from './entities/api-key.entity';
import { CachedKey } from './key-cache/api-key-cache';
import { CredentialRevocations } from './revocations/credential-revocations.service';
import { API_KEY_PATTERN, hashSecret, randomHex, randomToken } from './secrets';

export interface NewApiKey {
  accountId: number;
  name: string;
  description?: string;
  environment?: DeveloperAppEnvironment;
  /** The web app's own key (ApiKeyEntity.frontend); only the operator's CLI sets it. */
  frontend?: boolean;
}

/** Why an API key was refused; every refusal of a recognisable key is counted against it. */
export type ApiKeyCheck = { ok: true; key: CachedKey } | { ok: false; outcome: Extract<AnalyticsOutcome, 'INVALID' | 'DISABLED'> };

/** Issues, verifies, lists and revokes developer API keys. Only SHA-256 hashes of secrets are stored. */
@Injectable()
export class ApiKeyService {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly usage: ApiKeyUsageService,
    private readonly revocations: CredentialRevocations,
    private readonly feed: ChangeFeed,
  ) {}

  /** Creates a key and returns its secret, which is never retrievable again. */
  create(input: NewApiKey): Promise<{ key: ApiKeyEntity; secret: string }> {
    return this.insert(this.keys, input);
  }

  private async insert(keys: Repository<ApiKeyEntity>, input: NewApiKey): Promise<{ key: ApiKeyEntity; secret: string }> {
    const idHex = randomHex(6);
    const secret = `sk_${idHex}_${randomToken(32)}`;
    const key = await keys.save(
      keys.create({
        keyId: `key_${idHex}`,
        accountId: input.accountId,
        name: input.name,
        description: input.description ?? '',
        environment: input.environment ?? 'production',
        frontend: input.frontend ?? false,
        secretHash: hashSecret(secret),
        lastFour: secret.slice(-4),
        revokedAt: null,
      }),
    );
    return { key, secret };
  }

  /**
   * Creates a key unless the account already holds `limit` live ones (null then). The account's row is locked for
   * the count and the insert, so parallel creates cannot pass the limit together.
   */
  async createWithin(input: NewApiKey, limit: number): Promise<{ key: ApiKeyEntity; secret: string } | { limit: number }> {
    return this.keys.manager.transaction(async (manager) => {
      // The account's `developer_apps` resource, when an operator granted one (account-records/resources), else `limit`.
      const [row]: { granted: number | null }[] = await manager.query(
        `SELECT ${GRANTED_VALUE_SQL('$1', "'developer_apps'")} AS granted FROM accounts WHERE account_id = $1 FOR UPDATE`,
        [input.accountId],
      );
      const allowed = row?.granted ?? limit;
      const live = await manager.count(ApiKeyEntity, { where: { accountId: input.accountId, revokedAt: IsNull() } });
      if (live >= allowed) return { limit: allowed };
      return this.insert(manager.getRepository(ApiKeyEntity), input);
    });
  }

  /** Renames or re-describes a live key of the account; null when the account has no such live key. */
  async updateOwned(
    accountId: number,
    keyId: string,
    changes: Partial<Pick<ApiKeyEntity, 'name' | 'description' | 'environment'>>,
  ): Promise<ApiKeyEntity | null> {
    // A field left out arrives as undefined: only the ones given are written.
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(given).length) await this.keys.update({ keyId, accountId, revokedAt: IsNull() }, given);
    return this.keys.findOne({ where: { keyId, accountId, revokedAt: IsNull() } });
  }

  /** Whether a live key is a frontend key (analytics.trackEvent): one primary-key read. */
  async isFrontend(keyId: string): Promise<boolean> {
    const rows: { frontend: boolean }[] = await this.keys.query('SELECT frontend FROM api_keys WHERE key_id = $1 AND revoked_at IS NULL', [
      keyId,
    ]);
    return rows[0]?.frontend === true;
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

  /**
   * Revokes a live key (of `accountId` only, when given), with its change feed entry in the same transaction. This
   * process drops it at once; every API process drops it from its cache and ends its streams when it reads the entry:
   * no cache serves it KEY_CACHE_SYNC_MS after the commit (see key-cache/api-key-cache.ts for why that holds).
   */
  async revoke(keyId: string, accountId?: number): Promise<boolean> {
    const owner = accountId === undefined ? {} : { accountId };
    const revoked = await this.keys.manager.transaction(async (manager) => {
      const result = await manager.update(ApiKeyEntity, { keyId, revokedAt: IsNull(), ...owner }, { revokedAt: new Date() });
      if (result.affected) await this.feed.record(manager, { kind: 'api-key-revoked', payload: { keyId } });
      return Boolean(result.affected);
    });
    if (!revoked) return false;
    this.revocations.act({ kind: 'api-key', keyId });
    await this.feed.nudge();
    return true;
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
    const keyId = `key_${match[1]}`;
    const secretHash = hashSecret(token);
    // The hot path: a key verified lately and not revoked since (the cache holds live keys only).
    const cache = this.revocations.cache;
    const cached = cache.get(keyId);
    if (cached && cached.secretHash === secretHash) return { ok: true, key: cached };
    const ticket = cache.fillTicket();
    const key = await this.keys.findOne({ where: { keyId } });
    if (!key) return { ok: false, outcome: 'INVALID' };
    const refusal = key.secretHash !== secretHash ? 'INVALID' : key.revokedAt ? 'DISABLED' : null;
    if (!refusal) {
      cache.fill(key, ticket);
      return { ok: true, key };
    }
    await this.usage.record(key.keyId, refusal);
    return { ok: false, outcome: refusal };
  }

  /** A valid key offered to an operation that takes user sessions only: counted, then refused by the guard. */
  recordInsufficient(keyId: string): Promise<void> {
    return this.usage.record(keyId, 'INSUFFICIENT_PERMISSIONS');
  }
}
