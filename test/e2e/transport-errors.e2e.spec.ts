import { gzipSync } from 'node:zlib';
import { startTestApp, TestContext } from '../support/test-app';

/** Hostile transport input gets a problem document with the right 4xx, never a 5xx or a silent success. */
describe('transport errors and where credentials may travel', () => {
  let ctx: TestContext;
  let apiKey: string;
  let sessionToken: string;

  beforeAll(async () => {
    ctx = await startTestApp('transport');
    apiKey = await ctx.apiKey(2001);
    sessionToken = (await ctx.session(2002)).sessionToken;
  });
  afterAll(() => ctx.close());

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const isProblem = (res: { headers: Record<string, string>; body: { status?: number } }, status: number) => {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.status).toBe(status);
  };

  it.each(['gzip', 'deflate', 'br', 'compress', 'x-unknown'])('should answer 415 to a body with Content-Encoding: %s', async (encoding) => {
    for (const operation of ['stats.getStats', 'account.getInfo', 'activity.listGlobalFeed', 'account.refreshSession']) {
      const res = await ctx
        .http()
        .post(`/v1/${operation}`)
        .set(bearer(apiKey))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send(gzipSync(JSON.stringify({ id: { accountId: 2001 } })));
      expect({ operation, status: res.status }).toEqual({ operation, status: 415 });
      isProblem(res, 415);
      expect(res.headers['accept-encoding']).toBe('identity');
    }
  });

  it('should answer 415 to a body that is not JSON, on operations with and without a body', async () => {
    for (const [operation, type] of [
      ['activity.listGlobalFeed', 'text/plain'],
      ['account.getInfo', 'application/x-www-form-urlencoded'],
      ['stats.getStats', 'text/plain'],
      ['account.refreshSession', 'application/xml'],
    ]) {
      const res = await ctx.http().post(`/v1/${operation}`).set(bearer(apiKey)).set('Content-Type', type).send('refreshToken=x');
      expect({ operation, status: res.status }).toEqual({ operation, status: 415 });
      isProblem(res, 415);
    }
  });

  it('should answer 415 to a body with no Content-Type', async () => {
    const res = await ctx.http().post('/v1/activity.listGlobalFeed').set(bearer(apiKey)).set('Content-Type', '').send('{}');
    expect(res.status).toBe(415);
  });

  it('should still take no body at all, an empty body of any type, and application/*+json', async () => {
    await ctx.http().post('/v1/stats.getStats').set(bearer(apiKey)).expect(200);
    await ctx
      .http()
      .post('/v1/stats.getStats')
      .set(bearer(apiKey))
      .set('Content-Type', 'text/plain')
      .set('Content-Length', '0')
      .expect(200);
    await ctx.http().post('/v1/activity.listGlobalFeed').set('Content-Type', 'application/merge-patch+json').send('{}').expect(200);
    await ctx.http().post('/v1/activity.listGlobalFeed').set('Content-Type', 'application/json; charset=utf-8').send('{}').expect(200);
  });

  it('should read a JSON body in any UTF its type names, with a byte order mark, of a declared length or chunked', async () => {
    const body = JSON.stringify({ id: { accountId: -5 } });
    const variants: [string, string, Buffer][] = [
      ['no charset', 'application/json', Buffer.from(body)],
      ['utf-8', 'application/json; charset=utf-8', Buffer.from(body)],
      ['UTF-8 quoted', 'application/json; charset="UTF-8"', Buffer.from(body)],
      ['byte order mark', 'application/json', Buffer.from(`\ufeff${body}`)],
      ['utf-16le', 'application/json; charset=utf-16le', Buffer.from(body, 'utf16le')],
    ];
    type Answer = { status: number; body: { instance?: string; errors?: { location?: string }[] } };
    // The body was read (its one invalid value is named), and what followed ran as the request: its problem names it.
    const problemAt = (res: Answer) => ({
      status: res.status,
      instance: res.body.instance,
      locations: res.body.errors?.map((error) => error.location),
    });
    const expected = (requestId: string) => ({ status: 422, instance: `urn:request:${requestId}`, locations: ['body.id.accountId'] });
    for (const [i, [variant, type, bytes]] of variants.entries()) {
      const res = await ctx
        .http()
        .post('/v1/account.getInfo')
        .set(bearer(apiKey))
        .set('X-Request-Id', `read-body-${i}`)
        .set('Content-Type', type)
        // As they are: superagent would write a Buffer under a JSON type as JSON.
        .serialize((raw: Buffer) => raw as unknown as string)
        .send(bytes);
      expect({ variant, ...problemAt(res) }).toEqual({ variant, ...expected(`read-body-${i}`) });
    }
    const chunked = await new Promise<Answer>((resolve, reject) => {
      const request = ctx
        .http()
        .post('/v1/account.getInfo')
        .set(bearer(apiKey))
        .set('X-Request-Id', 'read-body-chunked')
        .set('Content-Type', 'application/json')
        .set('Transfer-Encoding', 'chunked');
      request.write(body.slice(0, 7));
      request.write(body.slice(7));
      request.end((error, res) => (error ? reject(error) : resolve(res)));
    });
    expect(problemAt(chunked)).toEqual(expected('read-body-chunked'));
  });

  it('should answer 405 with Allow to the wrong method on an existing operation or stream', async () => {
    for (const [method, path, allow] of [
      ['get', '/v1/stats.getStats', 'POST'],
      ['put', '/v1/account.getInfo', 'POST'],
      ['delete', '/v1/account.refreshSession', 'POST'],
      ['post', '/v1/stats.subscribe', 'GET, HEAD'],
      ['post', '/health', 'GET, HEAD'],
    ] as const) {
      const res = await ctx.http()[method](path).set(bearer(apiKey));
      expect({ path, method, status: res.status, allow: res.headers.allow }).toEqual({ path, method, status: 405, allow });
      isProblem(res, 405);
    }
    // A path that exists under no method stays a 404.
    expect((await ctx.http().get('/v1/nope.nothing')).status).toBe(404);
  });

  it('should refuse a credential in the query string or the body, even a valid one', async () => {
    for (const token of [apiKey, sessionToken]) {
      for (const operation of ['stats.getStats', 'account.getSettings', 'activity.listGlobalFeed']) {
        const res = await ctx.http().post(`/v1/${operation}?access_token=${encodeURIComponent(token)}`);
        expect({ operation, status: res.status }).toEqual({ operation, status: 401 });
        isProblem(res, 401);
      }
      const inBody = await ctx
        .http()
        .post('/v1/account.getInfo')
        .send({ id: { accountId: 2001 }, access_token: token });
      expect(inBody.status).toBe(401);
    }
  });

  it('should not let a query-string credential replace or join a header credential', async () => {
    const res = await ctx.http().post(`/v1/account.getSettings?access_token=${sessionToken}`).set(bearer(apiKey));
    expect(res.status).toBe(401);
    await ctx.http().post('/v1/account.getSettings').set(bearer(sessionToken)).expect(200);
  });
});
