import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AccountAdminService } from '../../src/accounts/account-admin.service';
import { Role } from '../../src/account-records/account.enums';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { CLI_ACTOR } from '../../src/staff/audit-log';
import { StaffChanges } from '../../src/staff/staff-changes.service';
import { SessionService } from '../../src/auth/session.service';
import { ChangeFeedFollower } from '../../src/change-feed/change-feed-follower';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { dropDatabase } from '../../src/database/ensure-database';
import { createHttpApp } from '../../src/http-app';
import { cloneTemplate } from './databases';
import { databaseUrl, REDIS_URL } from './stores';

export { REDIS_URL } from './stores';

export interface TestContext {
  app: INestApplication;
  config: AppConfig;
  http: () => ReturnType<typeof request>;
  dataSource: DataSource;
  /** Mints an API key for an account (creating the account row) and returns the secret. */
  apiKey(accountId: number): Promise<string>;
  /** Grants a role as the operator's CLI does (creating the account row): through StaffChanges, audited. */
  grantRole(accountId: number, role: Role, rating?: number): Promise<void>;
  /** Revokes a role as the operator's CLI does; resolves false when the account did not hold it. */
  revokeRole(accountId: number, role: Role): Promise<boolean>;
  /** Mints a user session for an account and returns `{ sessionToken, refreshToken }`. */
  session(accountId: number): Promise<{ sessionToken: string; refreshToken: string }>;
  close(): Promise<void>;
}

/** Test-only environment for the service: a private database and Redis prefix per test file. */
export function testConfig(name: string, extra: Record<string, string> = {}): AppConfig {
  return loadConfig({
    DATABASE_URL: databaseUrl(name),
    REDIS_URL,
    REDIS_PREFIX: `test:${name}`,
    PUBLIC_BASE_URL: 'http://api.test',
    PLATFORM_API_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'error',
    // Tests make many requests from one address; the rate-limit spec sets its own small limits.
    API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
    SESSION_RATE_LIMIT_PER_MINUTE: '1000000',
    ANONYMOUS_RATE_LIMIT_PER_MINUTE: '1000000',
    FAILED_CREDENTIAL_LIMIT_PER_MINUTE: '1000000',
    // Likewise for open event streams; the stream-limits spec sets its own small caps.
    STREAMS_PER_ACCOUNT: '100000',
    STREAMS_PER_ADDRESS: '100000',
    // Tests read right after writing; test/e2e/shared-answers.e2e.spec.ts runs with shared answers on.
    SHARED_ANSWER_TTL_MS: '0',
    ...extra,
  });
}

export function uniqueName(prefix: string): string {
  return `bst_${prefix}_${randomBytes(4).toString('hex')}`;
}

/** Boots the real HTTP application (guards, pipes, filters, PostgreSQL, Redis) on a fresh database. */
export async function startTestApp(prefix: string, env: Record<string, string> = {}): Promise<TestContext> {
  const name = uniqueName(prefix);
  await cloneTemplate(name);
  const config = testConfig(name, env);
  const app = await createHttpApp(config);
  await app.init();
  // As a load balancer would: requests only once /health would say ready (the projections loaded).
  await app.get(ChangeFeedFollower).whenWarm();
  const dataSource = app.get(DataSource);
  return {
    app,
    config,
    dataSource,
    http: () => request(app.getHttpServer()),
    async apiKey(accountId) {
      await app.get(AccountAdminService).ensureAccount(accountId);
      return (await app.get(ApiKeyService).create({ accountId, name: 'test key' })).secret;
    },
    async grantRole(accountId, role, rating) {
      await app.get(AccountAdminService).ensureAccount(accountId);
      await app.get(StaffChanges).grantRole(CLI_ACTOR, accountId, role, rating);
    },
    revokeRole(accountId, role) {
      return app.get(StaffChanges).revokeRole(CLI_ACTOR, accountId, role);
    },
    async session(accountId) {
      await app.get(AccountAdminService).ensureAccount(accountId);
      const issued = await app.get(SessionService).create(accountId, { ip: '127.0.0.1', userAgent: 'jest' });
      return { sessionToken: issued.sessionToken, refreshToken: issued.refreshToken };
    },
    async close() {
      await app.close();
      await clearRedisPrefix(config.redisPrefix);
      await dropDatabase(config.databaseUrl);
    },
  };
}

export async function clearRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
