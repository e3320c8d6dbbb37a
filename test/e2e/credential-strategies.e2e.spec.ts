import { startTestApp, TestContext } from '../support/test-app';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * The strategy guards (src/auth/guards/strategy.guards.ts): each application verifies credentials with its own
 * strategies, and a header the bearer strategies cannot read is no credential.
 */
describe('credential strategies', () => {
  let first: TestContext;
  let second: TestContext;

  beforeAll(async () => {
    // Two applications in one process, over different databases: passport's registry of strategies by name is
    // shared by the process, so a guard that looked strategies up there would verify the first app's credentials
    // against the second's database.
    first = await startTestApp('strategies_a');
    second = await startTestApp('strategies_b');
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it("should verify each application's API keys and sessions against its own store", async () => {
    const firstKey = await first.apiKey(2001);
    const secondKey = await second.apiKey(2002);
    const firstSession = await first.session(2003);
    expect((await first.http().post('/v1/stats.getStats').set(bearer(firstKey))).status).toBe(200);
    expect((await second.http().post('/v1/stats.getStats').set(bearer(secondKey))).status).toBe(200);
    expect((await second.http().post('/v1/stats.getStats').set(bearer(firstKey))).status).toBe(401);
    expect((await first.http().post('/v1/account.getSettings').set(bearer(firstSession.sessionToken))).status).toBe(200);
    expect((await second.http().post('/v1/account.getSettings').set(bearer(firstSession.sessionToken))).status).toBe(401);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bearer header of three parts', 'Bearer sk_a b'],
    ['a bearer header without a token', 'Bearer'],
  ])('should refuse %s with 401 and serve it anonymously where a credential is optional', async (_, header) => {
    const refused = await first.http().post('/v1/stats.getStats').set('Authorization', header);
    expect(refused.status).toBe(401);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const served = await first.http().post('/v1/search.getTrending').set('Authorization', header).send({ source: 'badge', window: '7d' });
    expect(served.status).toBe(200);
  });
});
