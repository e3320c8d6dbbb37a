import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAUTH_PROVIDERS, SIMULATOR_OAUTH_CLIENT } from '../../src/config/connections-config';
import { PlatformSimulator } from '../../src/platform/simulator';
import { simulatedIdentity } from '../../src/platform/simulator/oauth/oauth-identities';
import { TestDnsServer } from '../support/dns-server';
import { simulatorOAuthCode } from '../support/oauth';
import { startTestApp, TestContext } from '../support/test-app';
import { matchesDocument } from '../support/wire-answers';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const ZONE = 'bst-verify.test';

interface Connection {
  connectionId: string;
  externalId: string;
  provider: string;
  name: string;
  avatar: string;
  failed: boolean;
  hide: boolean;
  verified: boolean;
}

/**
 * Linked accounts through the real stack: OAuth through the simulator's providers (the authorize page, its redirect
 * with a code, the service's exchange at the token and user-info endpoints), and domains proven through a DNS server
 * and an HTTPS server (self-signed, trusted through DOMAIN_VERIFY_EXTRA_CA_FILE) that the test runs.
 */
describe('account connections', () => {
  let ctx: TestContext;
  let simulator: PlatformSimulator;
  let simulatorUrl: string;
  let dns: TestDnsServer;
  let https: Server;
  let certDir: string;
  /** What `https://<host>/.well-known/badge-stats-verification.txt` answers, by host. */
  const files = new Map<string, string>();
  const sessions: Record<number, string> = {};
  let apiKey: string;

  const post = (operation: string, token: string, body?: object) => {
    const request = ctx.http().post(`/v1/${operation}`).set(bearer(token)).expect(matchesDocument(operation));
    return body === undefined ? request : request.send(body);
  };
  const session = async (accountId: number) => (sessions[accountId] ??= (await ctx.session(accountId)).sessionToken);
  const publicConnections = async (accountId: number): Promise<Connection[]> =>
    (await post('account.getInfo', apiKey, { id: { accountId } }).expect(200)).body.connections;
  const settingsConnections = async (accountId: number): Promise<Connection[]> =>
    (await post('account.getSettings', await session(accountId)).expect(200)).body.connections;
  const rowCount = async () => Number((await ctx.dataSource.query('SELECT count(*) AS n FROM account_connections'))[0].n);

  /** The browser's part: the provider's authorize page, its form submitted for a simulated account, the redirect's code. */
  const authorize = (provider: string, simulatedAccount: number): Promise<string> =>
    simulatorOAuthCode(simulatorUrl, ctx.config.connections.redirectUri, provider, simulatedAccount);

  beforeAll(async () => {
    simulator = new PlatformSimulator({ seed: 1, accounts: 50 });
    simulatorUrl = `http://127.0.0.1:${await simulator.listen(0)}`;
    dns = new TestDnsServer();
    const dnsPort = await dns.start();
    certDir = mkdtempSync(join(tmpdir(), 'bst-conn-cert-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem'), '-subj', `/CN=site.${ZONE}`,
      '-addext', `subjectAltName=DNS:site.${ZONE},DNS:private.${ZONE}`,
    ], { stdio: 'ignore' }); // prettier-ignore
    https = createServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) }, (req, res) => {
      const body = req.url === '/.well-known/badge-stats-verification.txt' ? files.get((req.headers.host ?? '').split(':')[0]) : undefined;
      res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'text/plain' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    ctx = await startTestApp('connections', {
      // The simulator plays the platform, so every OAuth provider defaults to the simulator's.
      PLATFORM_API_URL: simulatorUrl,
      DOMAIN_VERIFY_DNS_SERVERS: `127.0.0.1:${dnsPort}`,
      DOMAIN_VERIFY_HTTPS_PORT: String((https.address() as AddressInfo).port),
      DOMAIN_VERIFY_EXTRA_CA_FILE: join(certDir, 'cert.pem'),
      // The HTTPS server is on loopback; every other private range stays refused.
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      CONNECTION_CREATES_PER_HOUR: '15',
    });
    apiKey = await ctx.apiKey(1);
  });
  afterAll(async () => {
    await ctx?.close();
    await simulator?.close();
    await dns?.close();
    https?.closeAllConnections();
    await new Promise((resolve) => https?.close(resolve));
    rmSync(certDir, { recursive: true, force: true });
  });

  it('should link an OAuth account through the simulator’s provider, and show it in the profile and the settings', async () => {
    const token = await session(1);
    const code = await authorize('discord', 7);
    const res = await post('account.createConnection', token, { provider: 'discord', code }).expect(200);
    expect(res.body).toEqual({
      $schema: 'http://api.test/schemas/V1AccountCreateConnectionResponseBody.json',
      code: '',
      connectionId: expect.stringMatching(/^con_[A-Za-z0-9_-]{22}$/),
    });
    const identity = simulatedIdentity('discord', 7, simulatorUrl);
    const expected: Connection = {
      connectionId: res.body.connectionId,
      externalId: identity.id,
      provider: 'discord',
      name: 'discord_user_7',
      avatar: `https://cdn.discordapp.com/avatars/${identity.id}/${identity.id.slice(0, 12)}.png`,
      failed: false,
      hide: false,
      verified: true,
    };
    expect(await publicConnections(1)).toEqual([expected]);
    expect(await settingsConnections(1)).toEqual([expected]);

    // A code is single-use: the provider refuses it again (422 on the code), and nothing is written.
    const before = await rowCount();
    const reused = await post('account.createConnection', await session(2), { provider: 'discord', code }).expect(422);
    expect(reused.body.errors[0].location).toBe('body.code');
    // One connection per provider and account.
    await post('account.createConnection', token, { provider: 'discord', code: await authorize('discord', 8) }).expect(409);
    // An account of a provider is linked to one account here.
    const elsewhere = await post('account.createConnection', await session(2), {
      provider: 'discord',
      code: await authorize('discord', 7),
    }).expect(409);
    expect(elsewhere.body.title).toBe('Linked elsewhere');
    expect(await rowCount()).toBe(before);
  });

  it('should hide, reconnect and delete an OAuth connection, each visible through the reads', async () => {
    const token = await session(1);
    const [connection] = await settingsConnections(1);
    const { connectionId } = connection;

    await post('account.updateConnection', token, { connectionId, hidden: true }).expect(200);
    expect(await publicConnections(1)).toEqual([]);
    expect(await settingsConnections(1)).toEqual([{ ...connection, hide: true }]);
    await post('account.updateConnection', token, { connectionId, hidden: false }).expect(200);
    expect(await publicConnections(1)).toEqual([connection]);

    // Reconnecting: a new code for the same account of the provider.
    const reconnected = await post('account.reconnectConnection', token, { connectionId, code: await authorize('discord', 7) }).expect(200);
    expect(reconnected.body).toEqual({ $schema: 'http://api.test/schemas/V1AccountReconnectResponseBody.json' });
    expect(await settingsConnections(1)).toEqual([connection]);
    // A code of another account of the provider does not reconnect this one.
    const other = await post('account.reconnectConnection', token, { connectionId, code: await authorize('discord', 9) }).expect(422);
    expect(other.body.errors[0].location).toBe('body.code');

    // Someone else's connection is not theirs to change: 404.
    await post('account.updateConnection', await session(2), { connectionId, hidden: true }).expect(404);
    await post('account.deleteConnection', await session(2), { connectionId }).expect(404);
    expect(await publicConnections(1)).toEqual([connection]);

    await post('account.deleteConnection', token, { connectionId }).expect(200);
    expect(await publicConnections(1)).toEqual([]);
    expect(await settingsConnections(1)).toEqual([]);
    await post('account.deleteConnection', token, { connectionId }).expect(404);
    await post('account.reconnectConnection', token, { connectionId, code: 'x' }).expect(404);
  });

  it('should read each provider’s user in its own shape (Basic or form client authentication, Twitch’s Client-Id)', async () => {
    const token = await session(3);
    for (const provider of OAUTH_PROVIDERS) {
      await post('account.createConnection', token, { provider, code: await authorize(provider, 11) }).expect(200);
    }
    const listed = await publicConnections(3);
    expect(listed.map((connection) => connection.provider)).toEqual([...OAUTH_PROVIDERS]);
    for (const connection of listed) {
      const identity = simulatedIdentity(connection.provider as (typeof OAUTH_PROVIDERS)[number], 11, simulatorUrl);
      expect(connection.externalId).toBe(
        connection.provider === 'youtube'
          ? `UC${identity.id}`
          : connection.provider === 'kick'
            ? identity.id.slice(0, 12).replace(/^0+/, '')
            : identity.id,
      );
      expect(connection.name).toBe(`${connection.provider}_user_11`);
      expect(connection.avatar).toMatch(/^https?:\/\//);
    }
    expect(listed.find((connection) => connection.provider === 'reddit')!.avatar).toBe(`${identity('reddit')}?s=1&v=2`);

    function identity(provider: 'reddit') {
      return simulatedIdentity(provider, 11, simulatorUrl).avatar;
    }
  });

  it('should prove a domain by its DNS TXT record', async () => {
    const token = await session(4);
    const created = await post('account.createConnection', token, { provider: 'domain', code: `Example-DNS.${ZONE}.` }).expect(200);
    const { code, connectionId } = created.body;
    expect(code).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const domain = `example-dns.${ZONE}`;
    // Listed in the settings, unverified; not on the profile yet.
    expect(await settingsConnections(4)).toEqual([
      { connectionId, externalId: domain, provider: 'domain', name: domain, avatar: '', failed: false, hide: false, verified: false },
    ]);
    expect(await publicConnections(4)).toEqual([]);

    const notYet = await post('account.verifyConnection', token, { connectionId }).expect(422);
    expect(notYet.body.errors.map((error: { message: string }) => error.message)).toEqual([
      `TXT _badge-stats.${domain}: no such record`,
      expect.stringContaining(`https://${domain}/.well-known/badge-stats-verification.txt`),
    ]);
    dns.records.set(`_badge-stats.${domain}`, { txt: ['badge-stats-verification=someone-else', `badge-stats-verification=${code}`] });
    await post('account.verifyConnection', token, { connectionId }).expect(200);
    const [shown] = await publicConnections(4);
    expect(shown).toMatchObject({ connectionId, provider: 'domain', name: domain, verified: true });
    // Verified once is verified: asking again changes nothing.
    await post('account.verifyConnection', token, { connectionId }).expect(200);
  });

  it('should prove a domain by its HTTPS file, and refuse to contact a private address', async () => {
    const token = await session(5);
    const site = `site.${ZONE}`;
    dns.records.set(site, { a: ['127.0.0.1'] });
    const created = await post('account.createConnection', token, { provider: 'domain', code: site }).expect(200);
    files.set(site, 'something else\n');
    await post('account.verifyConnection', token, { connectionId: created.body.connectionId }).expect(422);
    files.set(site, `${created.body.code}\n`);
    await post('account.verifyConnection', token, { connectionId: created.body.connectionId }).expect(200);
    expect((await publicConnections(5)).map((connection) => connection.name)).toEqual([site]);

    // A name that resolves to a private address is never contacted, even with the file there.
    const hidden = `private.${ZONE}`;
    dns.records.set(hidden, { a: ['10.20.30.40'] });
    const inside = await post('account.createConnection', token, { provider: 'domain', code: hidden }).expect(200);
    files.set(hidden, inside.body.code);
    const refused = await post('account.verifyConnection', token, { connectionId: inside.body.connectionId }).expect(422);
    expect(refused.body.errors[1].message).toContain('refused, the name resolves to a private address');
    expect((await settingsConnections(5)).find((connection) => connection.name === hidden)!.verified).toBe(false);
  });

  it('should refuse invalid input with 422 and write nothing', async () => {
    const token = await session(6);
    const before = await rowCount();
    const invalid: [object, string][] = [
      [{ provider: 'myspace', code: 'x' }, 'body.provider'],
      [{ provider: 'discord', code: '' }, 'body.code'],
      [{ provider: 'discord', code: 'x'.repeat(1025) }, 'body.code'],
      [{ provider: 'domain', code: '10.0.0.1' }, 'body.code'],
      [{ provider: 'domain', code: '[::1]' }, 'body.code'],
      [{ provider: 'domain', code: 'localhost' }, 'body.code'],
      [{ provider: 'domain', code: 'printer.localhost' }, 'body.code'],
      [{ provider: 'domain', code: 'under_score.example.com' }, 'body.code'],
      [{ provider: 'domain', code: `${'a'.repeat(64)}.com` }, 'body.code'],
      [{ provider: 'domain' }, 'body.code'],
    ];
    for (const [body, location] of invalid) {
      const res = await post('account.createConnection', token, body).expect(422);
      expect(res.body.errors.map((error: { location: string }) => error.location)).toContain(location);
    }
    for (const operation of ['account.verifyConnection', 'account.deleteConnection'])
      await post(operation, token, { connectionId: 'con_short' }).expect(422);
    await post('account.updateConnection', token, { connectionId: 'con_Q2hhbmdlTWVJbUFuRXhhbX', hidden: 'yes' }).expect(422);
    await post('account.updateConnection', token, { connectionId: 'con_Q2hhbmdlTWVJbUFuRXhhbX', hidden: true }).expect(404);
    // API keys are refused: a session only.
    await post('account.createConnection', apiKey, { provider: 'domain', code: 'example.com' }).expect(401);
    expect(await rowCount()).toBe(before);
  });

  it('should hold an account to its allowance (409) and its creates per hour (429), and let unverified domains lapse', async () => {
    const token = await session(7);
    for (let i = 0; i < 10; i++)
      await post('account.createConnection', token, { provider: 'domain', code: `d${i}.example.com` }).expect(200);
    const full = await post('account.createConnection', token, { provider: 'domain', code: 'd10.example.com' }).expect(409);
    expect(full.body.title).toBe('Too many connections');
    await post('account.createConnection', token, { provider: 'domain', code: 'd0.example.com' }).expect(409);
    for (let i = 0; i < 3; i++)
      await post('account.createConnection', token, { provider: 'domain', code: `e${i}.example.com` }).expect(409);
    const throttled = await post('account.createConnection', token, { provider: 'domain', code: 'f.example.com' }).expect(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);

    // Unverified for longer than 7 days: gone from the settings, and no longer counted or found.
    const [first] = await settingsConnections(7);
    await ctx.dataSource.query(`UPDATE account_connections SET created_at = now() - interval '8 days' WHERE connection_id = $1`, [
      first.connectionId,
    ]);
    expect((await settingsConnections(7)).map((connection) => connection.connectionId)).not.toContain(first.connectionId);
    await post('account.verifyConnection', token, { connectionId: first.connectionId }).expect(404);
  });
});

describe('account connections with OAUTH_PROVIDERS configured', () => {
  let ctx: TestContext;
  let simulator: PlatformSimulator;

  beforeAll(async () => {
    simulator = new PlatformSimulator({ seed: 1, accounts: 20 });
    const base = `http://127.0.0.1:${await simulator.listen(0)}/oauth/twitch`;
    ctx = await startTestApp('connconf', {
      OAUTH_PROVIDERS: JSON.stringify({
        twitch: {
          ...SIMULATOR_OAUTH_CLIENT,
          authorizeUrl: `${base}/authorize`,
          tokenUrl: `${base}/token`,
          userInfoUrl: `${base}/userinfo`,
        },
        // A client the provider does not know: its exchange fails on this service's setup, not on the user's code.
        discord: {
          clientId: SIMULATOR_OAUTH_CLIENT.clientId,
          clientSecret: 'wrong',
          tokenUrl: `${base}/token`,
          authorizeUrl: `${base}/authorize`,
          userInfoUrl: `${base}/userinfo`,
        },
      }),
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await simulator?.close();
  });

  it('should answer 403 for a provider without a client, and 503 when the provider refuses the service’s client', async () => {
    const token = (await ctx.session(1)).sessionToken;
    const res = await ctx
      .http()
      .post('/v1/account.createConnection')
      .set(bearer(token))
      .send({ provider: 'kick', code: 'abc' })
      .expect(403);
    expect(res.body.detail).toContain('not available');
    await ctx.http().post('/v1/account.createConnection').set(bearer(token)).send({ provider: 'discord', code: 'abc' }).expect(503);
    // A code the provider does not know: the user's (422).
    await ctx.http().post('/v1/account.createConnection').set(bearer(token)).send({ provider: 'twitch', code: 'abc' }).expect(422);
    expect(Number((await ctx.dataSource.query('SELECT count(*) AS n FROM account_connections'))[0].n)).toBe(0);
  });
});
