import { PREFLIGHT_MAX_AGE_SECONDS } from '../../src/common/http/browser-access';
import { startTestApp, TestContext } from '../support/test-app';

const WEB_APP = 'http://webapp.test';
const SECOND_APP = 'https://admin.webapp.test';

/** A browser on the web app's origin: CORS preflights and headers, security headers, no-store on secrets. */
describe('browser access', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('browser', { WEB_APP_ORIGIN: WEB_APP, CORS_ORIGINS: `${WEB_APP}, ${SECOND_APP}` });
  });
  afterAll(() => ctx.close());

  const corsHeaders = (headers: Record<string, string>) => Object.keys(headers).filter((name) => name.startsWith('access-control-'));
  const preflight = (path: string, origin: string, method = 'POST', requestHeaders = 'authorization,content-type') =>
    ctx
      .http()
      .options(path)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', requestHeaders);

  it('should answer a preflight from an allowed origin to any operation or stream with the CORS headers', async () => {
    for (const [path, method, origin] of [
      ['/v1/account.getInfo', 'POST', WEB_APP],
      ['/v1/account.getSession', 'POST', SECOND_APP],
      ['/v1/account.subscribe', 'GET', WEB_APP],
      ['/v1/stats.subscribe', 'GET', WEB_APP],
    ]) {
      const res = await preflight(path, origin, method, 'authorization,content-type,last-event-id,x-request-id');
      expect({ path, status: res.status }).toEqual({ path, status: 204 });
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers.vary).toMatch(/Origin/);
      expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST');
      expect(res.headers['access-control-allow-headers'].toLowerCase().split(',')).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'last-event-id', 'x-request-id']),
      );
      expect(res.headers['access-control-max-age']).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('should give another origin no CORS header at all, its preflight answered like any OPTIONS (405)', async () => {
    for (const origin of ['http://evil.test', 'http://webapp.test.evil.test', 'https://webapp.test', 'null']) {
      const res = await preflight('/v1/account.getInfo', origin);
      expect({ origin, status: res.status }).toEqual({ origin, status: 405 });
      expect(res.headers.allow).toBe('POST');
      expect(corsHeaders(res.headers)).toEqual([]);
      const call = await ctx.http().post('/v1/stats.getStats').set('Origin', origin);
      expect(call.status).toBe(401);
      expect(corsHeaders(call.headers)).toEqual([]);
    }
    // An OPTIONS that is no preflight (no Access-Control-Request-Method) stays a 405, even from the web app.
    const plain = await ctx.http().options('/v1/account.getInfo').set('Origin', WEB_APP);
    expect(plain.status).toBe(405);
    expect(plain.headers['content-type']).toMatch(/problem\+json/);
  });

  it('should let the web app read answers and errors, with the rate-limit and request-id headers', async () => {
    const key = await ctx.apiKey(1);
    const ok = await ctx.http().post('/v1/stats.getStats').set('Origin', WEB_APP).set('Authorization', `Bearer ${key}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(WEB_APP);
    expect(ok.headers['access-control-expose-headers'].split(',')).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id']),
    );
    const refused = await ctx.http().post('/v1/account.getSettings').set('Origin', WEB_APP).set('Authorization', `Bearer ${key}`);
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(WEB_APP);
  });

  it('should send the security headers on every answer: operations, errors, health, schemas, and a policy for /docs', async () => {
    const answers = [
      await ctx.http().post('/v1/donate.getGoal'),
      await ctx.http().post('/v1/stats.getStats'),
      await ctx.http().get('/health'),
      await ctx.http().get('/schemas/V1AccountGetSessionBody.json'),
      await ctx.http().get('/v1/nope'),
    ];
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    const docs = await ctx.http().get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    const policy = docs.headers['content-security-policy'];
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toContain("script-src 'self' 'unsafe-inline'");
  });

  it('should mark every answer that carries a credential, code or secret no-store, and leave public reads cacheable', async () => {
    const { sessionToken, refreshToken } = await ctx.session(2);
    const session = `Bearer ${sessionToken}`;
    const refreshed = await ctx.http().post('/v1/account.refreshSession').send({ refreshToken });
    const token = `Bearer ${refreshed.body.sessionToken}`;
    const created = await ctx.http().post('/v1/account.createDeveloperApp').set('Authorization', token).send({ name: 'Browser app' });
    const answers = {
      refreshSession: refreshed,
      createDeveloperApp: created,
      createStreamTicket: await ctx
        .http()
        .post('/v1/auth.createStreamTicket')
        .set('Authorization', `Bearer ${created.body.apiKey}`)
        .send({ stream: 'stats.subscribe' }),
      getSession: await ctx.http().post('/v1/account.getSession').set('Authorization', token),
      getSettings: await ctx.http().post('/v1/account.getSettings').set('Authorization', token),
      login: await ctx.http().post('/v1/account.login').send({}),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect({ name, cacheControl: res.headers['cache-control'] }).toEqual({ name, cacheControl: 'no-store' });
    }
    expect(answers.createStreamTicket.status).toBe(200);
    expect((await ctx.http().post('/v1/account.getSession').set('Authorization', session)).status).toBe(401);
    expect((await ctx.http().post('/v1/donate.getGoal')).headers['cache-control']).toBeUndefined();
  });
});
