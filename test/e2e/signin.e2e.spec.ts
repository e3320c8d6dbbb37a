import { PlatformSimulator } from '../../src/platform/simulator';
import { simulatorAssertion } from '../support/openid';
import { startTestApp, TestContext } from '../support/test-app';

const WEB_APP = 'http://webapp.test';

describe('sign-in with the platform (OpenID 2.0)', () => {
  let ctx: TestContext;
  let simulator: PlatformSimulator;
  let simulatorUrl: string;

  beforeAll(async () => {
    simulator = new PlatformSimulator({ seed: 5, accounts: 60, apiKey: null });
    simulatorUrl = `http://127.0.0.1:${await simulator.listen(0)}`;
    ctx = await startTestApp('signin', { PLATFORM_API_URL: simulatorUrl, WEB_APP_ORIGIN: WEB_APP, LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(async () => {
    await ctx.close();
    await simulator.close();
  });

  const login = (body: Record<string, string>) => ctx.http().post('/v1/account.login').set('User-Agent', 'jest-browser').send(body);
  const settings = (token: string) => ctx.http().post('/v1/account.getSettings').set('Authorization', `Bearer ${token}`);

  it('should sign a new account in from the provider’s redirect, create it and queue its first refresh', async () => {
    const assertion = await simulatorAssertion(simulatorUrl, 7, `${WEB_APP}/signed-in?next=%2F`);
    const res = await login(assertion);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      accountId: 7,
      newAccount: true,
      sessionToken: expect.stringMatching(/^auth_/),
      refreshToken: expect.stringMatching(/^rt_/),
    });
    expect(Date.parse(res.body.sessionExpiresAt)).toBeGreaterThan(Date.now());
    // The answer holds the credential: no browser or proxy may keep it.
    expect(res.headers['cache-control']).toBe('no-store');
    const [account] = await ctx.dataSource.query('SELECT last_queue_status FROM accounts WHERE account_id = 7');
    expect(account.last_queue_status).toBe('pending');
    const own = await settings(res.body.sessionToken);
    expect(own.status).toBe(200);
    expect(own.body.sessions.map((s: { userAgent: string }) => s.userAgent)).toEqual(['jest-browser']);

    // A second sign-in of the same account is another session of the same, existing account.
    const again = await login(await simulatorAssertion(simulatorUrl, 7, `${WEB_APP}/`));
    expect(again.body).toMatchObject({ accountId: 7, newAccount: false });
    expect(again.body.sessionToken).not.toBe(res.body.sessionToken);
  });

  it('should sign in, create a developer app, call with its key, delete it: the very next request with the key is a 401', async () => {
    const signedIn = await login(await simulatorAssertion(simulatorUrl, 20, `${WEB_APP}/`));
    expect(signedIn.status).toBe(200);
    const session = `Bearer ${signedIn.body.sessionToken}`;
    const created = await ctx.http().post('/v1/account.createDeveloperApp').set('Authorization', session).send({ name: 'Signed-in app' });
    expect(created.status).toBe(200);
    const key = `Bearer ${created.body.apiKey}`;
    for (let i = 0; i < 3; i++) expect((await ctx.http().post('/v1/stats.getStats').set('Authorization', key)).status).toBe(200);
    const deleted = await ctx
      .http()
      .post('/v1/account.deleteDeveloperApp')
      .set('Authorization', session)
      .send({ keyId: created.body.developerApp.keyId });
    expect(deleted.status).toBe(204);
    expect((await ctx.http().post('/v1/stats.getStats').set('Authorization', key)).status).toBe(401);
  });

  it('should refuse a replayed assertion, even one whose first use succeeded', async () => {
    const assertion = await simulatorAssertion(simulatorUrl, 8, `${WEB_APP}/`);
    expect((await login(assertion)).status).toBe(200);
    const replay = await login(assertion);
    expect(replay.status).toBe(401);
    expect(replay.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(replay.body.detail).toMatch(/already used/);
  });

  it('should refuse two racing uses of one assertion but one', async () => {
    const assertion = await simulatorAssertion(simulatorUrl, 9, `${WEB_APP}/`);
    const statuses = (await Promise.all([login(assertion), login(assertion), login(assertion)])).map((res) => res.status);
    expect(statuses.sort()).toEqual([200, 401, 401]);
  });

  it('should refuse forged assertions: another account, a made-up signature, a signature not covering the identity', async () => {
    const genuine = await simulatorAssertion(simulatorUrl, 10, `${WEB_APP}/`);
    const otherId = 'https://steamcommunity.com/openid/id/76561197960265739';
    const forgeries: Record<string, string>[] = [
      { ...genuine, openid_claimed_id: otherId, openid_identity: otherId },
      { ...genuine, openid_sig: Buffer.alloc(32, 7).toString('base64') },
      { ...genuine, openid_signed: 'signed,op_endpoint,return_to,response_nonce,assoc_handle' },
      { ...genuine, openid_op_endpoint: 'http://evil.test/openid/login' },
      { ...genuine, openid_mode: 'cancel' },
    ];
    for (const [index, forged] of forgeries.entries()) {
      const res = await login(forged);
      expect({ index, status: res.status }).toEqual({ index, status: 401 });
    }
    // None of the refusals spent the genuine assertion's nonce: it still signs account 10 in, once.
    expect((await login(genuine)).body.accountId).toBe(10);
  });

  it('should refuse an assertion for another origin, though the platform signed it', async () => {
    const foreign = await simulatorAssertion(simulatorUrl, 11, 'http://evil.test/steal');
    const res = await login(foreign);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/origin/);
    const lookalike = await simulatorAssertion(simulatorUrl, 11, 'http://webapp.test.evil.test/');
    expect((await login(lookalike)).status).toBe(401);
  });

  it('should refuse a stale assertion (its nonce stamped long ago)', async () => {
    const past = new PlatformSimulator({ seed: 5, accounts: 60, apiKey: null, openIdClock: () => Date.now() - 10 * 60_000 });
    try {
      const url = `http://127.0.0.1:${await past.listen(0)}`;
      const stale = await simulatorAssertion(url, 12, `${WEB_APP}/`);
      const res = await login({ ...stale, openid_op_endpoint: `${simulatorUrl}/openid/login` });
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/stale/);
    } finally {
      await past.close();
    }
  });

  it('should end the calling session on account.logout, refresh token included', async () => {
    const signedIn = (await login(await simulatorAssertion(simulatorUrl, 13, `${WEB_APP}/`))).body;
    expect((await settings(signedIn.sessionToken)).status).toBe(200);
    const out = await ctx.http().post('/v1/account.logout').set('Authorization', `Bearer ${signedIn.sessionToken}`);
    expect(out.status).toBe(204);
    expect((await settings(signedIn.sessionToken)).status).toBe(401);
    const refreshed = await ctx.http().post('/v1/account.refreshSession').send({ refreshToken: signedIn.refreshToken });
    expect(refreshed.status).toBe(401);
  });

  it('should validate the body: a missing field is a 422 naming it', async () => {
    const assertion = await simulatorAssertion(simulatorUrl, 14, `${WEB_APP}/`);
    const { openid_sig: _sig, ...withoutSig } = assertion;
    const res = await login(withoutSig);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain('body.openid_sig');
  });
});

describe('sign-in attempts per address', () => {
  let ctx: TestContext;
  afterAll(() => ctx.close());

  it('should answer 429 with Retry-After past LOGIN_RATE_LIMIT_PER_MINUTE, before asking the platform', async () => {
    // The platform is unreachable here: an attempt that got as far as asking it would be a 503, not a 401.
    ctx = await startTestApp('signin_limit', { WEB_APP_ORIGIN: WEB_APP, LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
    const bogus = {
      openid_ns: 'http://specs.openid.net/auth/2.0',
      openid_mode: 'id_res',
      openid_op_endpoint: 'http://evil.test/openid/login',
      openid_claimed_id: 'https://steamcommunity.com/openid/id/76561197960265729',
      openid_identity: 'https://steamcommunity.com/openid/id/76561197960265729',
      openid_return_to: `${WEB_APP}/`,
      openid_response_nonce: `${new Date().toISOString().slice(0, 19)}Zx`,
      openid_assoc_handle: 'h',
      openid_signed: 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle',
      openid_sig: 'AAAA',
    };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ctx.http().post('/v1/account.login').send(bogus)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await ctx.http().post('/v1/account.login').send(bogus);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
