import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyUsageService } from '../../src/auth/api-key-usage.service';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { ApiKeyUsageEntity } from '../../src/auth/entities/api-key-usage.entity';
import { ApiKeyEntity } from '../../src/auth/entities/api-key.entity';
import { CredentialRevocations, KEY_CACHE_SYNC_MS } from '../../src/auth/revocations/credential-revocations.service';
import { CredentialStreams } from '../../src/auth/revocations/credential-streams';
import { AppConfig } from '../../src/config/app-config';
import { CoreModule } from '../../src/core.module';
import { startTestApp, TestContext } from '../support/test-app';
import { matchesDocument } from '../support/wire-answers';

/** Another API process's key verification: its own cache and its own change feed follower, on the same stores. */
async function otherProcess(config: AppConfig): Promise<INestApplicationContext> {
  @Module({
    imports: [CoreModule.forRoot(config), TypeOrmModule.forFeature([ApiKeyEntity, ApiKeyUsageEntity])],
    providers: [ApiKeyService, ApiKeyUsageService, CredentialRevocations, CredentialStreams],
  })
  class KeyVerification {}
  // An HTTP application (never listening): only a process serving HTTP follows the revocations.
  const app = await NestFactory.create(KeyVerification, { logger: false });
  await app.init();
  const deadline = Date.now() + 5000;
  while (!app.get(CredentialRevocations).cache.active) {
    if (Date.now() > deadline) throw new Error('the other process never followed the change feed');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return app;
}

describe('developer apps', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('devapps', { DEVELOPER_APPS_PER_ACCOUNT: '3', DEVELOPER_APP_CHANGES_PER_HOUR: '12' });
  });
  afterAll(() => ctx.close());

  const as = (token: string, op: string, body: object = {}) =>
    ctx.http().post(`/v1/${op}`).set('Authorization', `Bearer ${token}`).send(body).expect(matchesDocument(op));

  it('should create, list, update and delete an app; the key works until the delete and not one request after', async () => {
    const { sessionToken } = await ctx.session(31);
    const created = await as(sessionToken, 'account.createDeveloperApp', {
      name: 'Overlay',
      description: 'badges on stream',
      environment: 'development',
    });
    expect(created.status).toBe(200);
    const { developerApp, apiKey } = created.body;
    expect(developerApp).toMatchObject({
      name: 'Overlay',
      description: 'badges on stream',
      environment: 'development',
      id: developerApp.keyId,
    });
    expect(apiKey).toMatch(/^sk_[0-9a-f]{12}_/);
    expect(developerApp.apiKey).toBe(`sk_${developerApp.keyId.slice(4)}_…${apiKey.slice(-4)}`);

    expect((await as(apiKey, 'stats.getStats')).status).toBe(200);
    const listed = await as(sessionToken, 'account.getSettings');
    expect(listed.body.developerApps).toHaveLength(1);
    expect(listed.body.developerApps[0]).toMatchObject({ keyId: developerApp.keyId, name: 'Overlay' });
    expect(listed.body.developerApps[0].analytics.last24Hours.totalRequests).toBeGreaterThanOrEqual(0);

    const updated = await as(sessionToken, 'account.updateDeveloperApp', {
      keyId: developerApp.keyId,
      name: 'Overlay 2',
      environment: 'production',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      keyId: developerApp.keyId,
      name: 'Overlay 2',
      description: 'badges on stream',
      environment: 'production',
    });
    expect((await as(apiKey, 'stats.getStats')).status).toBe(200);
    const unchanged = await as(sessionToken, 'account.updateDeveloperApp', { keyId: developerApp.keyId });
    expect(unchanged.body).toMatchObject({ name: 'Overlay 2', environment: 'production' });

    expect((await as(sessionToken, 'account.deleteDeveloperApp', { keyId: developerApp.keyId })).status).toBe(204);
    const after = await as(apiKey, 'stats.getStats');
    expect(after.status).toBe(401);
    expect(after.body.detail).toMatch(/revoked/);
    expect((await as(sessionToken, 'account.getSettings')).body.developerApps).toEqual([]);
    expect((await as(sessionToken, 'account.deleteDeveloperApp', { keyId: developerApp.keyId })).status).toBe(404);
  });

  it('should take sessions only, and touch only the caller’s own apps', async () => {
    const owner = await ctx.session(32);
    const stranger = await ctx.session(33);
    const { developerApp, apiKey } = (await as(owner.sessionToken, 'account.createDeveloperApp', { name: 'Mine' })).body;
    expect(developerApp.environment).toBe('production');
    expect((await as(apiKey, 'account.createDeveloperApp', { name: 'By key' })).status).toBe(401);
    expect((await as(stranger.sessionToken, 'account.updateDeveloperApp', { keyId: developerApp.keyId, name: 'x' })).status).toBe(404);
    expect((await as(stranger.sessionToken, 'account.deleteDeveloperApp', { keyId: developerApp.keyId })).status).toBe(404);
    expect((await as(apiKey, 'stats.getStats')).status).toBe(200);
    const bad = await as(owner.sessionToken, 'account.createDeveloperApp', { name: '', environment: 'moon' });
    expect(bad.status).toBe(422);
  });

  it('should refuse an app past the allowance with 409, also when the creates race', async () => {
    const { sessionToken } = await ctx.session(34);
    const statuses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => as(sessionToken, 'account.createDeveloperApp', { name: `App ${i}` }).then((res) => res.status)),
    );
    expect(statuses.sort()).toEqual([200, 200, 200, 409, 409]);
    const refused = await as(sessionToken, 'account.createDeveloperApp', { name: 'One more' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/3 developer apps/);
    const [first] = (await as(sessionToken, 'account.getSettings')).body.developerApps;
    expect((await as(sessionToken, 'account.deleteDeveloperApp', { keyId: first.keyId })).status).toBe(204);
    expect((await as(sessionToken, 'account.createDeveloperApp', { name: 'Room again' })).status).toBe(200);
  });

  it('should answer 429 past DEVELOPER_APP_CHANGES_PER_HOUR', async () => {
    const { sessionToken } = await ctx.session(35);
    const { developerApp } = (await as(sessionToken, 'account.createDeveloperApp', { name: 'Busy' })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await as(sessionToken, 'account.updateDeveloperApp', { keyId: developerApp.keyId, name: `v${i}` })).status);
    expect(statuses.slice(0, 11).every((status) => status === 200)).toBe(true);
    expect(statuses[11]).toBe(429);
    const limited = await as(sessionToken, 'account.updateDeveloperApp', { keyId: developerApp.keyId, name: 'again' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
  });

  it('should verify a key from the cache, and revoke it on another process within the bound (at once when nudged)', async () => {
    const other = await otherProcess(ctx.config);
    try {
      const { sessionToken } = await ctx.session(36);
      const { developerApp, apiKey } = (await as(sessionToken, 'account.createDeveloperApp', { name: 'Cached' })).body;
      const keys = other.get(ApiKeyService);
      expect(await keys.check(apiKey)).toMatchObject({ ok: true, key: { keyId: developerApp.keyId, accountId: 36 } });
      // Served from the cache: revoked behind the service's back (no broadcast), the other process still accepts it…
      await ctx.dataSource.query('UPDATE api_keys SET revoked_at = now() WHERE key_id = $1', [developerApp.keyId]);
      expect((await keys.check(apiKey))?.ok).toBe(true);
      await ctx.dataSource.query('UPDATE api_keys SET revoked_at = NULL WHERE key_id = $1', [developerApp.keyId]);
      // …which is why a revocation is recorded in the change feed: the other process drops the key when it reads the
      // entry (nudged: milliseconds), and its cache serves nothing while it is more than KEY_CACHE_SYNC_MS behind.
      expect((await as(sessionToken, 'account.deleteDeveloperApp', { keyId: developerApp.keyId })).status).toBe(204);
      const revoked = Date.now();
      while (other.get(CredentialRevocations).cache.get(developerApp.keyId) && Date.now() - revoked < KEY_CACHE_SYNC_MS) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(Date.now() - revoked).toBeLessThan(KEY_CACHE_SYNC_MS);
      expect(await keys.check(apiKey)).toEqual({ ok: false, outcome: 'DISABLED' });
      expect(other.get(CredentialRevocations).cache.size).toBe(0);
    } finally {
      await other.close();
    }
  });
});
