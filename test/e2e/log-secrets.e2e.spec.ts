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
});
