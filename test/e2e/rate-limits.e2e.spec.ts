import { ApiKeyUsageService } from '../../src/auth/api-key-usage.service';
import { startTestApp, TestContext } from '../support/test-app';

const WINDOW_SECONDS = 2;
const LIMITS = { apiKey: 5, session: 4, anonymous: 3, failed: 2 };

/** Small limits and a 2 s window, so that the window's sliding can be watched within a test. */
describe('rate limits for every caller', () => {
  let ctx: TestContext;
  let address = 0;
  /** Each test calls from its own client address (X-Forwarded-For is trusted for one hop here). */
  const newAddress = () => `198.51.100.${++address}`;

  beforeAll(async () => {
    ctx = await startTestApp('ratelimit', {
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      API_KEY_RATE_LIMIT_PER_MINUTE: String(LIMITS.apiKey),
      SESSION_RATE_LIMIT_PER_MINUTE: String(LIMITS.session),
      ANONYMOUS_RATE_LIMIT_PER_MINUTE: String(LIMITS.anonymous),
      FAILED_CREDENTIAL_LIMIT_PER_MINUTE: String(LIMITS.failed),
      TRUST_PROXY_HOPS: '1',
    });
  });
  afterAll(() => ctx.close());

  const call = (operation: string, from: string, token?: string) => {
    const req = ctx.http().post(`/v1/${operation}`).set('X-Forwarded-For', from);
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('should limit an API key, answer 429 problem+json with Retry-After and RateLimit headers, and count it', async () => {
    const key = await ctx.apiKey(3001);
    const from = newAddress();
    const remaining: string[] = [];
    for (let i = 0; i < LIMITS.apiKey; i++) {
      const res = await call('stats.getStats', from, key).expect(200);
      expect(res.headers['ratelimit-limit']).toBe(String(LIMITS.apiKey));
      expect(res.headers['ratelimit-policy']).toBe(`${LIMITS.apiKey};w=${WINDOW_SECONDS}`);
      remaining.push(res.headers['ratelimit-remaining']);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const res = await call('stats.getStats', from, key);
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 429, title: 'Too Many Requests', detail: expect.stringMatching(/API key/) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(res.headers['ratelimit-remaining']).toBe('0');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);

    // Not downgraded to anonymous where a credential is optional: the key is over its limit there too.
    expect((await call('activity.listGlobalFeed', from, key)).status).toBe(429);
    // Another address changes nothing: the key is the subject.
    expect((await call('stats.getStats', newAddress(), key)).status).toBe(429);

    await ctx.app.get(ApiKeyUsageService).flush();
    const rows = await ctx.dataSource.query(
      `SELECT outcome, sum(count)::int AS count FROM api_key_usage WHERE key_id = $1 GROUP BY outcome ORDER BY outcome`,
      [`key_${key.slice(3, 15)}`],
    );
    expect(rows).toEqual([
      { outcome: 'RATE_LIMITED', count: 3 },
      { outcome: 'VALID', count: LIMITS.apiKey },
    ]);
  });

  it('should limit a session', async () => {
    const { sessionToken } = await ctx.session(3002);
    const from = newAddress();
    for (let i = 0; i < LIMITS.session; i++) await call('stats.getStats', from, sessionToken).expect(200);
    const res = await call('account.getSettings', from, sessionToken);
    expect(res.status).toBe(429);
    expect(res.body.detail).toMatch(/session/);
  });

  it('should limit anonymous callers by client address, on public and optional operations alike', async () => {
    const from = newAddress();
    await call('activity.listGlobalFeed', from).expect(200);
    await call('donate.getGoal', from).expect(200);
    await call('stats.getStats', from).expect(401);
    const res = await call('activity.listGlobalFeed', from);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await call('donate.getGoal', from)).status).toBe(429);
    // Another address has its own budget; health checks are never limited.
    await call('activity.listGlobalFeed', newAddress()).expect(200);
    for (let i = 0; i < 10; i++) await ctx.http().get('/health').set('X-Forwarded-For', from).expect(200);
  });

  it('should limit failed credentials by address, before checking them, valid ones included', async () => {
    const key = await ctx.apiKey(3003);
    const from = newAddress();
    const wrongKey = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    await call('stats.getStats', from, wrongKey).expect(401);
    await call('activity.listGlobalFeed', from, 'auth_not-a-session-token-at-all').expect(200); // ignored on an optional operation
    const refused = await call('stats.getStats', from, wrongKey);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/invalid credentials/);
    expect((await call('stats.getStats', from, key)).status).toBe(429);
    expect((await ctx.http().post('/v1/account.refreshSession').set('X-Forwarded-For', from).send({ refreshToken: 'rt_x' })).status).toBe(
      429,
    );
    // The key itself is fine from elsewhere; valid credentials cost no failed-credential slot.
    for (let i = 0; i < LIMITS.failed + 1; i++) await call('stats.getStats', newAddress(), key).expect(200);
  });

  it('should count failed refresh tokens, but not refreshes that work', async () => {
    const from = newAddress();
    for (let i = 0; i < LIMITS.failed; i++) {
      const { refreshToken } = await ctx.session(3004);
      await ctx.http().post('/v1/account.refreshSession').set('X-Forwarded-For', from).send({ refreshToken }).expect(200);
    }
    const elsewhere = newAddress();
    for (let i = 0; i < LIMITS.failed; i++) {
      await ctx.http().post('/v1/account.refreshSession').set('X-Forwarded-For', elsewhere).send({ refreshToken: 'rt_nope' }).expect(401);
    }
    await sleep(50); // the slot of a failed refresh is settled when its response has been sent
    const res = await ctx.http().post('/v1/account.refreshSession').set('X-Forwarded-For', elsewhere).send({ refreshToken: 'rt_nope' });
    expect(res.status).toBe(429);
  });

  it('should let no more than the limit through in parallel', async () => {
    const key = await ctx.apiKey(3005);
    const from = newAddress();
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => call('stats.getStats', from, key)))).map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMITS.apiKey);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - LIMITS.apiKey);
  });

  it('should pass no more than the limit in any window, across a calendar-window boundary too', async () => {
    const key = await ctx.apiKey(3006);
    const from = newAddress();
    // Just before a multiple of the window on the clock: where a fixed window would reset its counter.
    const windowMs = WINDOW_SECONDS * 1000;
    let boundary = Math.ceil(Date.now() / windowMs) * windowMs;
    if (boundary - Date.now() < 300) boundary += windowMs;
    await sleep(boundary - 300 - Date.now());
    const before = await Promise.all(Array.from({ length: LIMITS.apiKey }, () => call('stats.getStats', from, key)));
    // Just past that same boundary (on a loaded machine the first batch may itself end past it), still well inside
    // the window of the first batch.
    await sleep(Math.max(0, boundary + 100 - Date.now()));
    const after = await Promise.all(Array.from({ length: LIMITS.apiKey }, () => call('stats.getStats', from, key)));
    expect(before.map((res) => res.status)).toEqual(Array(LIMITS.apiKey).fill(200));
    expect(after.map((res) => res.status)).toEqual(Array(LIMITS.apiKey).fill(429));

    // The window slides: once the first requests are older than the window, there is room again.
    const retryAfter = Number(after[0].headers['retry-after']);
    await sleep(retryAfter * 1000 + 100);
    await call('stats.getStats', from, key).expect(200);
  });
});
