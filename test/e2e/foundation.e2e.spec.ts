import { ApiKeyUsageService } from '../../src/auth/api-key-usage.service';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { rebuildDerivedState } from '../../src/derived/derived-state';
import { startTestApp, TestContext } from '../support/test-app';

describe('wire conventions, credentials and first operations', () => {
  let ctx: TestContext;
  let apiKey: string;
  let session: { sessionToken: string; refreshToken: string };

  beforeAll(async () => {
    ctx = await startTestApp('foundation');
    apiKey = await ctx.apiKey(1001);
    session = await ctx.session(1002);
  });
  afterAll(() => ctx.close());

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('should answer 401 problem+json when stats.getStats is called without a credential', async () => {
    const res = await ctx.http().post('/v1/stats.getStats');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
    expect(res.body.instance).toMatch(/^urn:request:/);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('should answer 401 when the bearer token is unknown', async () => {
    const res = await ctx
      .http()
      .post('/v1/stats.getStats')
      .set(bearer('sk_000000000000_' + 'A'.repeat(43)));
    expect(res.status).toBe(401);
  });

  it('should return the 20 totals with $schema when called with an API key', async () => {
    const res = await ctx.http().post('/v1/stats.getStats').set(bearer(apiKey));
    expect(res.status).toBe(200);
    expect(res.body.$schema).toBe('http://api.test/schemas/V1Stats.json');
    const { $schema, ...totals } = res.body;
    expect(Object.keys(totals).sort()).toEqual(
      [
        'accountsAdded',
        'accountsUpdated',
        'appPlaytime',
        'apps',
        'awardsGiven',
        'awardsReceived',
        'badges',
        'bans',
        'foilBadges',
        'friends',
        'gameBans',
        'level',
        'normalBadges',
        'playtime',
        'pointsGiven',
        'pointsReceived',
        'steamSetsScore',
        'totalAccounts',
        'vacBans',
        'xp',
      ].sort(),
    );
    for (const value of Object.values(totals)) expect(Number.isInteger(value)).toBe(true);
    // The two accounts the credentials belong to exist; nothing has been refreshed yet.
    expect(totals.totalAccounts).toBe(2);
    expect(totals.accountsUpdated).toBe(0);
  });

  it('should sum stored account counters in stats.getStats', async () => {
    await ctx.dataSource.query('UPDATE accounts SET xp = 150, badges = 3, vac_bans = 1 WHERE account_id = 1001');
    await ctx.dataSource.query('UPDATE accounts SET xp = 50, badges = 2, updated_at = now() WHERE account_id = 1002');
    // The totals are maintained by the service's own writers; rows changed behind its back need a rebuild.
    await rebuildDerivedState(ctx.app, ['platform-totals']);
    const res = await ctx.http().post('/v1/stats.getStats').set(bearer(session.sessionToken));
    expect(res.body).toMatchObject({ xp: 200, badges: 5, vacBans: 1, accountsUpdated: 1, totalAccounts: 2 });
  });

  it('should serve the JSON Schema a $schema link points to', async () => {
    const res = await ctx.http().get('/schemas/V1Stats.json');
    expect(res.status).toBe(200);
    expect(res.body.$id).toBe('http://api.test/schemas/V1Stats.json');
    expect(res.body.properties.totalAccounts).toMatchObject({ type: 'integer', format: 'int64' });
    expect((await ctx.http().get('/schemas/Nope.json')).status).toBe(404);
    // A nullable reference admits null: its reference or null, not a type union the reference would still refuse.
    const settings = await ctx.http().get('/schemas/V1AccountGetSettingsBody.json').expect(200);
    expect(settings.body.properties.chosenRole.anyOf).toEqual([
      expect.objectContaining({ allOf: [{ $ref: 'http://api.test/schemas/ChosenRole.json' }] }),
      { type: 'null' },
    ]);
    // Revalidated by its ETag: the same document again costs a 304 and no body.
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    const again = await ctx.http().get('/schemas/V1Stats.json').set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await ctx.http().get('/schemas/V1Stats.json').set('If-None-Match', '"other"')).status).toBe(200);
  });

  it('should send a wire answer without an ETag: a POST is never answered with 304', async () => {
    const res = await ctx.http().post('/v1/stats.getStats').set(bearer(apiKey));
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });

  it('should refuse an API key on account.getSettings with 401', async () => {
    const res = await ctx.http().post('/v1/account.getSettings').set(bearer(apiKey));
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/user session/);
  });

  it('should return the settings of the session account in the wire shape', async () => {
    const res = await ctx.http().post('/v1/account.getSettings').set(bearer(session.sessionToken));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      $schema: 'http://api.test/schemas/V1AccountGetSettingsBody.json',
      chosenRole: null,
      connections: [],
      developerApps: [],
      email: 'account-1002@users.invalid',
      emailVerifiedAt: null,
      hidden: false,
      images: [],
      language: 'en',
      privacy: 'public',
      subscribed: false,
      vanity: '',
      vanityAnalytics: { clicks: 0 },
    });
    expect(res.body.sessions).toHaveLength(1);
    expect(res.body.sessions[0]).toEqual({
      sessionId: expect.stringMatching(/^ses_/),
      ip: '127.0.0.1',
      userAgent: 'jest',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      lastSeen: expect.any(String),
    });
  });

  it('should list developer apps with masked keys and count each request by outcome', async () => {
    const owner = await ctx.session(1004);
    const key = await ctx.apiKey(1004);
    for (let i = 0; i < 3; i++) await ctx.http().post('/v1/stats.getStats').set(bearer(key)).expect(200);
    await ctx.http().post('/v1/account.getSettings').set(bearer(key)).expect(401);
    const wrongSecret = key.slice(0, -4) + (key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    await ctx.http().post('/v1/stats.getStats').set(bearer(wrongSecret)).expect(401);
    const res = await ctx.http().post('/v1/account.getSettings').set(bearer(owner.sessionToken)).expect(200);
    const [app] = res.body.developerApps;
    expect(app.apiKey).toBe(`${key.slice(0, 'sk_'.length + 12)}_…${key.slice(-4)}`);
    expect(app.id).toBe(app.keyId);
    const breakdown = Object.fromEntries(
      app.analytics.last24Hours.outcomeBreakdown.map((o: { outcome: string; count: number }) => [o.outcome, o.count]),
    );
    expect(breakdown).toEqual({ VALID: 3, INSUFFICIENT_PERMISSIONS: 1, INVALID: 1 });
    expect(app.analytics.last24Hours).toMatchObject({ totalRequests: 5, successfulRequests: 3, failedRequests: 2, successRate: 60 });
    expect(res.body.analytics.last24Hours.totalRequests).toBe(app.analytics.last24Hours.totalRequests);
    expect(app.analytics.timeSeries.hourly.length).toBeGreaterThan(0);
  });

  it('should rotate the session on account.refreshSession and stop the old tokens', async () => {
    const own = await ctx.session(1003);
    const res = await ctx.http().post('/v1/account.refreshSession').send({ refreshToken: own.refreshToken });
    expect(res.status).toBe(200);
    expect(res.body.$schema).toBe('http://api.test/schemas/V1AccountRefreshSessionBody.json');
    expect(res.body.sessionToken).toMatch(/^auth_/);
    expect(res.body.refreshToken).not.toBe(own.refreshToken);
    await ctx.http().post('/v1/account.getSettings').set(bearer(own.sessionToken)).expect(401);
    await ctx.http().post('/v1/account.getSettings').set(bearer(res.body.sessionToken)).expect(200);
    await ctx.http().post('/v1/account.refreshSession').send({ refreshToken: own.refreshToken }).expect(401);
  });

  it('should answer 422 naming an unknown body field', async () => {
    const res = await ctx.http().post('/v1/account.refreshSession').send({ refreshToken: 'rt_x', extra: 1 });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ location: 'body.extra', value: 1 });
  });

  it('should answer 422 for a field on an operation without a body, but accept {} and $schema', async () => {
    const res = await ctx.http().post('/v1/stats.getStats').set(bearer(apiKey)).send({ foo: 'bar' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toEqual({ location: 'body.foo', message: 'unknown field "foo"', value: 'bar' });
    await ctx.http().post('/v1/stats.getStats').set(bearer(apiKey)).send({}).expect(200);
    await ctx.http().post('/v1/stats.getStats').set(bearer(apiKey)).send({ $schema: 'x' }).expect(200);
  });

  it('should answer 422 with the location of a missing required field', async () => {
    const res = await ctx.http().post('/v1/account.refreshSession').send({});
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain('body.refreshToken');
  });

  it('should answer 400 for malformed JSON', async () => {
    const res = await ctx.http().post('/v1/stats.getStats').set(bearer(apiKey)).set('Content-Type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toMatch(/not valid JSON/);
  });

  it('should answer 413 for a body over the limit', async () => {
    const big = JSON.stringify({ refreshToken: 'x'.repeat(ctx.config.bodyLimitBytes + 10) });
    const res = await ctx.http().post('/v1/account.refreshSession').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
  });

  it('should answer 404 problem+json for an unknown operation', async () => {
    const res = await ctx.http().post('/v1/nope.nothing').set(bearer(apiKey));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('should report PostgreSQL and Redis as up on /health', async () => {
    const res = await ctx.http().get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: 'up', redis: 'up' } });
  });

  it('should refuse a revoked API key and count it as DISABLED', async () => {
    const key = await ctx.apiKey(1005);
    await ctx.http().post('/v1/stats.getStats').set(bearer(key)).expect(200);
    const keyId = `key_${key.slice(3, 15)}`;
    await ctx.app.get(ApiKeyService).revoke(keyId);
    const res = await ctx.http().post('/v1/stats.getStats').set(bearer(key)).expect(401);
    expect(res.body.detail).toMatch(/revoked/);
    await ctx.app.get(ApiKeyUsageService).flush();
    const counts = await ctx.dataSource.query('SELECT outcome, count FROM api_key_usage WHERE key_id = $1 ORDER BY outcome', [keyId]);
    expect(counts).toEqual([
      { outcome: 'DISABLED', count: 1 },
      { outcome: 'VALID', count: 1 },
    ]);
  });

  it('should write nothing when validation fails', async () => {
    const before = await ctx.dataSource.query('SELECT count(*)::int AS n FROM accounts');
    const res = await ctx
      .http()
      .post('/v1/account.queueUpdate')
      .set(bearer(apiKey))
      .send({ id: { accountId: 77, steamId64: '123' }, vanity: { type: 'steam', value: 'a-b' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.id.steamId64', 'body.vanity.value']);
    expect(await ctx.dataSource.query('SELECT count(*)::int AS n FROM accounts')).toEqual(before);
  });

  it('should store no plaintext secret', async () => {
    const dump = JSON.stringify([
      await ctx.dataSource.query('SELECT * FROM api_keys'),
      await ctx.dataSource.query('SELECT * FROM user_sessions'),
    ]);
    expect(dump).not.toContain(apiKey);
    expect(dump).not.toContain(apiKey.slice(17));
    expect(dump).not.toContain(session.sessionToken);
    expect(dump).not.toContain(session.refreshToken);
  });
});
