import { join } from 'node:path';
import { ConfigError, loadConfig, redactUrl } from '../../src/config/app-config';

describe('loadConfig', () => {
  it('should default to the simulator, the local stores and port 3000 when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/badge_stats');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.platform).toMatchObject({ mode: 'simulator', apiUrl: 'http://127.0.0.1:3100', apiKey: null });
    expect(config.simulator.embedded).toBe(true);
  });

  it('should use the real platform when a key is set', () => {
    const config = loadConfig({ PLATFORM_API_KEY: 'abc' });
    expect(config.platform).toMatchObject({
      mode: 'live',
      apiUrl: 'https://api.steampowered.com',
      communityUrl: 'https://steamcommunity.com',
    });
    expect(config.simulator.embedded).toBe(false);
  });

  it('should not embed a simulator when one runs elsewhere', () => {
    const config = loadConfig({ SIMULATOR_URL: 'http://api:3100' });
    expect(config.platform.apiUrl).toBe('http://api:3100');
    expect(config.simulator.embedded).toBe(false);
  });

  it('should run one API process unless told otherwise, and several only without an embedded simulator', () => {
    expect(loadConfig({}).apiProcesses).toBe(1);
    expect(loadConfig({ API_PROCESSES: '2', SIMULATOR_URL: 'http://sim:3100' }).apiProcesses).toBe(2);
    expect(() => loadConfig({ API_PROCESSES: '2' })).toThrow(/API_PROCESSES above 1 needs PLATFORM_API_URL or SIMULATOR_URL/);
    expect(() => loadConfig({ API_PROCESSES: '0', SIMULATOR_URL: 'http://sim:3100' })).toThrow(/API_PROCESSES must be between 1 and 64/);
  });

  it.each([
    ['PORT', 'abc', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be between 0 and 65535/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must use postgres:/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['SIMULATOR_ACCOUNTS', '0', /SIMULATOR_ACCOUNTS must be between/],
  ])('should reject %s=%s with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('should resolve the image store directory and keep the large body limit to its own variable', () => {
    const config = loadConfig({});
    expect(config.images.storeDir).toBe(join(process.cwd(), 'data', 'images'));
    expect(config.images.uploadBodyLimitBytes).toBe(20 * 1024 * 1024);
    expect(config.bodyLimitBytes).toBe(256 * 1024);
    expect(loadConfig({ IMAGE_STORE_DIR: '/srv/images' }).images.storeDir).toBe('/srv/images');
    expect(() => loadConfig({ IMAGE_UPLOAD_BODY_LIMIT_BYTES: '1gb' })).toThrow(/IMAGE_UPLOAD_BODY_LIMIT_BYTES must be an integer/);
  });

  it('should send e-mail through SMTP_URL only when it is set, and never echo its password', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: 'no-reply@localhost' });
    const config = loadConfig({ SMTP_URL: 'smtps://user:pw@mail.example.com:465', MAIL_FROM: 'Stats <stats@example.com>' });
    expect(config.mail).toEqual({ smtpUrl: 'smtps://user:pw@mail.example.com:465', from: 'Stats <stats@example.com>' });
    expect(() => loadConfig({ SMTP_URL: 'http://user:secret@mail.example.com' })).toThrow(/SMTP_URL must use smtp: or smtps:/);
    expect(() => loadConfig({ SMTP_URL: 'not a url secret' })).toThrow(ConfigError);
  });

  it('should let the simulator play every OAuth provider without a platform key, and offer none with one unless configured', () => {
    const local = loadConfig({}).connections;
    expect(Object.keys(local.oauth).sort()).toEqual(['discord', 'kick', 'patreon', 'reddit', 'twitch', 'x', 'youtube']);
    expect(local.oauth.discord).toEqual({
      clientId: 'badge-stats-local',
      clientSecret: 'badge-stats-local-secret',
      authorizeUrl: 'http://127.0.0.1:3100/oauth/discord/authorize',
      tokenUrl: 'http://127.0.0.1:3100/oauth/discord/token',
      userInfoUrl: 'http://127.0.0.1:3100/oauth/discord/userinfo',
    });
    expect(local.redirectUri).toBe('http://localhost:3000/settings/connections/callback');
    expect(local).toMatchObject({ createsPerHour: 20, dnsServers: [], httpsPort: 443, extraCaFile: null });
    expect(loadConfig({ PLATFORM_API_KEY: 'k' }).connections.oauth).toEqual({});
    const live = loadConfig({ PLATFORM_API_KEY: 'k', OAUTH_PROVIDERS: '{"twitch":{"clientId":"id","clientSecret":"s3cret"}}' });
    expect(live.connections.oauth).toEqual({ twitch: { clientId: 'id', clientSecret: 's3cret' } });
    expect(loadConfig({ DOMAIN_VERIFY_DNS_SERVERS: '10.0.0.53, 127.0.0.1:5353' }).connections.dnsServers).toEqual([
      '10.0.0.53',
      '127.0.0.1:5353',
    ]);
  });

  it('should refuse a malformed OAUTH_PROVIDERS without echoing its secrets', () => {
    for (const raw of [
      'not json',
      '[]',
      '{"myspace":{"clientId":"a","clientSecret":"s3cret"}}',
      '{"discord":{"clientId":"a"}}',
      '{"discord":{"clientId":"a","clientSecret":"s3cret","tokenUrl":"https://t"}}',
      '{"discord":{"clientId":"a","clientSecret":"s3cret","authorizeUrl":"ftp://a","tokenUrl":"https://t","userInfoUrl":"https://u"}}',
      '{"discord":{"clientId":"a","clientSecret":"s3cret","extra":1}}',
    ]) {
      expect(() => loadConfig({ OAUTH_PROVIDERS: raw })).toThrow(ConfigError);
      try {
        loadConfig({ OAUTH_PROVIDERS: raw });
      } catch (error) {
        expect((error as Error).message).not.toContain('s3cret');
      }
    }
    expect(() => loadConfig({ DOMAIN_VERIFY_DNS_SERVERS: 'dns.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ OAUTH_REDIRECT_URI: 'not a url' })).toThrow(ConfigError);
  });

  it('should never echo credentials of a bad URL', () => {
    expect(redactUrl('redis://user:secret@host:6379')).toBe('redis://***@host:6379');
    expect(redactUrl('http://x/api?key=SECRET&a=1')).toBe('http://x/api?key=***&a=1');
  });
});
