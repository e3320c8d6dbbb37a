import { JsonLogger } from '../../src/common/logging/json-logger';
import { ISSUED_SECRET_PREFIXES } from '../../src/common/logging/pino';
import { newSigningSecret } from '../../src/webhooks/webhook-signature';
import { requestContext } from '../../src/common/logging/request-context';
import { captureLogs } from '../support/logs';
import { startTestApp, TestContext } from '../support/test-app';

describe('logs', () => {
  let ctx: TestContext;
  const { lines, restore } = captureLogs();

  beforeAll(async () => {
    ctx = await startTestApp('logs', { LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    restore();
    await ctx.close();
  });

  it('should log each request as JSON with a request id and never a credential', async () => {
    const key = await ctx.apiKey(9);
    const { sessionToken, refreshToken } = await ctx.session(9);
    const wrong = `${key.slice(0, -4)}0000`;
    await ctx.http().post('/v1/stats.getStats').set('Authorization', `Bearer ${key}`).expect(200);
    await ctx.http().post('/v1/stats.getStats').set('Authorization', `Bearer ${wrong}`).expect(401);
    await ctx.http().post('/v1/account.getSettings').set('Authorization', `Bearer ${sessionToken}`).expect(200);
    await ctx.http().post('/v1/account.refreshSession').send({ refreshToken }).expect(200);
    await ctx.http().post('/v1/account.refreshSession').send({ refreshToken }).expect(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const requests = lines.filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line));
    expect(requests.length).toBeGreaterThanOrEqual(5);
    for (const entry of requests) expect(entry).toMatchObject({ level: 'info', requestId: expect.any(String), status: expect.any(Number) });
    const all = lines.join('');
    for (const secret of [key, wrong, sessionToken, refreshToken, key.slice(16)]) expect(all).not.toContain(secret);
  });

  it("should name each request by the id it answers with, the client's own when well-formed", async () => {
    const key = await ctx.apiKey(11);
    lines.length = 0;
    const offered = await ctx
      .http()
      .post('/v1/stats.getStats')
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', 'client-req-0001');
    const malformed = await ctx
      .http()
      .post('/v1/stats.getStats')
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', 'no spaces allowed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(offered.headers['x-request-id']).toBe('client-req-0001');
    expect(malformed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requests.map((entry) => entry.requestId)).toEqual(['client-req-0001', malformed.headers['x-request-id']]);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/stats.getStats', status: 200, credential: { kind: 'api-key' } });
    expect(lines.filter((line) => line.includes('"requestId"') && line.split('"requestId"').length > 2)).toEqual([]);
  });

  it('should carry the id of the request being served on every line, across its awaits', async () => {
    lines.length = 0;
    await requestContext.run('req-under-test', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      new JsonLogger('Test').warn({ msg: 'inside' });
    });
    new JsonLogger('Test').warn({ msg: 'outside' });
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.find((entry) => entry.msg === 'inside')).toMatchObject({ requestId: 'req-under-test', context: 'Test' });
    expect(entries.find((entry) => entry.msg === 'outside')).not.toHaveProperty('requestId');
  });

  it('should log a failed query as JSON with its statement and SQLSTATE, never its parameters or values', async () => {
    const input = 'client-input-7f3a9c';
    lines.length = 0;
    await expect(ctx.dataSource.query('SELECT $1::int AS n', [input])).rejects.toThrow();
    await expect(ctx.dataSource.query(`SELECT '${input}'::int AS n`)).rejects.toThrow();
    const entries = lines.map((line) => JSON.parse(line));
    const failures = entries.filter((entry) => entry.msg === 'query failed');
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ level: 'warn', context: 'typeorm', code: '22P02', query: 'SELECT $1::int AS n' });
    expect(lines.join('')).not.toContain(input);
    expect(lines.join('')).not.toContain('PARAMETERS');
  });

  it('should never log a credential sent in the query string', async () => {
    const key = await ctx.apiKey(10);
    lines.length = 0;
    await ctx.http().post(`/v1/stats.getStats?access_token=${key}`).expect(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.some((line) => line.includes('"msg":"request"'))).toBe(true);
    expect(lines.join('')).not.toContain(key.slice(16));
  });

  it('should mask every secret the service issues wherever a line carries it, not only in a Bearer header', async () => {
    const key = await ctx.apiKey(12);
    const { sessionToken, refreshToken } = await ctx.session(12);
    const ticket = (
      await ctx
        .http()
        .post('/v1/auth.createStreamTicket')
        .set('Authorization', `Bearer ${key}`)
        .send({ stream: 'stats.subscribe' })
        .expect(200)
    ).body.ticket as string;
    const issued = { sk: key, auth: sessionToken, rt: refreshToken, stk: ticket, whsec: newSigningSecret() };
    // Every prefix the patterns know is one the service issues, and every issued one is known.
    expect(Object.keys(issued).filter((prefix) => prefix !== 'sk')).toEqual([...ISSUED_SECRET_PREFIXES]);
    lines.length = 0;
    const logger = new JsonLogger('Test');
    for (const [prefix, secret] of Object.entries(issued)) {
      expect(secret.startsWith(`${prefix}_`)).toBe(true);
      logger.warn({ msg: `a message quoting ${secret}`, field: secret, url: `/v1/stats.subscribe?ticket=${secret}&x=1` });
      logger.error({ msg: 'failure', error: new Error(`refused "${secret}"`).message, nested: { value: `x:${secret}` } });
    }
    const all = lines.join('');
    expect(lines.length).toBe(2 * Object.keys(issued).length);
    for (const secret of Object.values(issued)) expect(all).not.toContain(secret.slice(-24));
    expect(all).toContain('whsec_***');
    expect(all).toContain('stk_***');
  });
});
