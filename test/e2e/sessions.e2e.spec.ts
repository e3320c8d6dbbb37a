import { INestApplication } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { CredentialStreams } from '../../src/auth/revocations/credential-streams';
import { SessionService } from '../../src/auth/session.service';
import { createHttpApp } from '../../src/http-app';
import { openSse, SseConnection } from '../support/sse';
import { PAGE_SIZE_BY_TIER } from '../../src/account-records/donor-tiers';
import { startTestApp, TestContext } from '../support/test-app';
import { matchesDocument } from '../support/wire-answers';

/** The signed-in user's sessions: account.getSession, account.deleteSession, refresh-token families, lastSeen, streams. */
describe('sessions', () => {
  let ctx: TestContext;
  let port: number;
  const open: SseConnection[] = [];

  beforeAll(async () => {
    ctx = await startTestApp('sessions', { DEVELOPER_APPS_PER_ACCOUNT: '4', UPDATE_COOLDOWN_SECONDS: '1800' });
    await ctx.app.listen(0, '127.0.0.1');
    port = (ctx.app.getHttpServer().address() as AddressInfo).port;
  });
  afterEach(() => open.splice(0).forEach((connection) => connection.close()));
  afterAll(() => ctx.close());

  const as = (token: string, op: string, body?: object) => {
    const req = ctx.http().post(`/v1/${op}`).set('Authorization', `Bearer ${token}`).expect(matchesDocument(op));
    return body === undefined ? req : req.send(body);
  };
  const sessionIdOf = async (token: string): Promise<string> => (await as(token, 'account.getSession')).body.sessionData.sessionId;
  const sse = async (path: string, headers: Record<string, string> = {}, on = port) => {
    const connection = await openSse(on, path, headers);
    open.push(connection);
    return connection;
  };
  /** Resolves with how long the stream took to end after `since`, or fails after `withinMs`. */
  const endsWithin = async (stream: SseConnection, since: number, withinMs: number): Promise<number> => {
    let timer!: NodeJS.Timeout;
    const timeout = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error('the stream is still open')), withinMs)));
    try {
      await Promise.race([stream.ended, timeout]);
      return Date.now() - since;
    } finally {
      clearTimeout(timer);
    }
  };

  describe('account.getSession', () => {
    it('should answer the calling session and its account, with the limits the service enforces', async () => {
      await ctx.grantRole(41, 'donator', 5);
      const { sessionToken } = await ctx.session(41);
      const res = await as(sessionToken, 'account.getSession');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        $schema: 'http://api.test/schemas/V1AccountGetSessionBody.json',
        accountId: 41,
        avatar: '',
        email: 'account-41@users.invalid',
        isNew: true,
        level: 0,
        name: '',
        resources: [
          { resource: 'developer_apps', value: '4' },
          { resource: 'max_badge_crafters', value: '100' },
          { resource: 'max_find_owners', value: '100' },
          { resource: 'account_refresh_rate', value: '1800' },
          { resource: 'inventory_refresh_rate', value: '1800' },
        ],
        roles: [{ role: 'donator', rating: 5, extras: null }],
        sessionData: {
          sessionId: expect.stringMatching(/^ses_[0-9a-f]{16}$/),
          ip: '127.0.0.1',
          userAgent: 'jest',
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
          lastSeen: expect.any(String),
        },
        steamId: '76561197960265769',
        xp: 0,
      });
      // An account whose first update has completed is no longer new; staff skip the cooldown.
      await ctx.dataSource.query('UPDATE accounts SET updated_at = now(), level = 12, xp = 1450 WHERE account_id = 41');
      await ctx.grantRole(41, 'staff', 9);
      const later = (await as(sessionToken, 'account.getSession')).body;
      expect(later).toMatchObject({ isNew: false, level: 12, xp: 1450 });
      expect(later.roles.map((role: { role: string }) => role.role)).toEqual(['staff', 'donator']);
      expect(later.resources).toContainEqual({ resource: 'max_badge_crafters', value: String(PAGE_SIZE_BY_TIER.tier_mythic) });
      expect(later.resources).toContainEqual({ resource: 'account_refresh_rate', value: '0' });
    });

    it('should take user sessions only, and no body', async () => {
      const key = await ctx.apiKey(42);
      const refused = await as(key, 'account.getSession');
      expect(refused.status).toBe(401);
      expect(refused.headers['content-type']).toMatch(/problem\+json/);
      expect((await ctx.http().post('/v1/account.getSession')).status).toBe(401);
      const { sessionToken } = await ctx.session(42);
      expect((await as(sessionToken, 'account.getSession', { extra: 1 })).status).toBe(422);
    });
  });

  describe('account.deleteSession', () => {
    it('should end one of the caller’s own sessions, and answer 404 for another account’s, an ended or an unknown one', async () => {
      const mine = await ctx.session(43);
      const myOther = await ctx.session(43);
      const theirs = await ctx.session(44);
      const otherId = await sessionIdOf(myOther.sessionToken);
      const theirId = await sessionIdOf(theirs.sessionToken);

      const foreign = await as(mine.sessionToken, 'account.deleteSession', { sessionId: theirId });
      expect(foreign.status).toBe(404);
      expect(foreign.headers['content-type']).toMatch(/problem\+json/);
      expect((await as(theirs.sessionToken, 'account.getSession')).status).toBe(200);
      expect((await as(mine.sessionToken, 'account.deleteSession', { sessionId: 'ses_0000000000000000' })).status).toBe(404);

      const deleted = await as(mine.sessionToken, 'account.deleteSession', { sessionId: otherId });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ $schema: 'http://api.test/schemas/V1AccountDeleteSessionResponseBody.json' });
      expect((await as(myOther.sessionToken, 'account.getSession')).status).toBe(401);
      expect((await ctx.http().post('/v1/account.refreshSession').send({ refreshToken: myOther.refreshToken })).status).toBe(401);
      const listed = (await as(mine.sessionToken, 'account.getSettings')).body.sessions.map((s: { sessionId: string }) => s.sessionId);
      expect(listed).toEqual([await sessionIdOf(mine.sessionToken)]);
      expect((await as(mine.sessionToken, 'account.deleteSession', { sessionId: otherId })).status).toBe(404);
    });

    it('should refuse API keys and validate the body', async () => {
      const key = await ctx.apiKey(45);
      const { sessionToken } = await ctx.session(45);
      const sessionId = await sessionIdOf(sessionToken);
      expect((await as(key, 'account.deleteSession', { sessionId })).status).toBe(401);
      expect((await as(sessionToken, 'account.getSession')).status).toBe(200);
      const missing = await as(sessionToken, 'account.deleteSession', {});
      expect(missing.status).toBe(422);
      expect(JSON.stringify(missing.body.errors)).toContain('body.sessionId');
      expect((await as(sessionToken, 'account.deleteSession', { sessionId: 'x'.repeat(65) })).status).toBe(422);
    });
  });

  it('should move lastSeen without writing PostgreSQL on each request, and show it current in the session lists', async () => {
    const { sessionToken } = await ctx.session(46);
    const sessionId = await sessionIdOf(sessionToken);
    const row = async () =>
      (
        await ctx.dataSource.query<{ xmin: string; last_seen: Date }[]>(
          'SELECT xmin::text, last_seen FROM user_sessions WHERE session_id = $1',
          [sessionId],
        )
      )[0];
    await ctx.dataSource.query(`UPDATE user_sessions SET last_seen = now() - interval '10 minutes' WHERE session_id = $1`, [sessionId]);
    const before = await row();
    for (let i = 0; i < 20; i++) expect((await as(sessionToken, 'stats.getStats')).status).toBe(200);
    // Twenty requests, and the row is the very version written above: nothing was written in their path.
    expect(await row()).toEqual(before);
    // The session lists write what waits first: the stored lastSeen is the requests' time.
    const started = Date.now();
    const listed = (await as(sessionToken, 'account.getSettings')).body.sessions[0];
    expect(Date.now() - Date.parse(listed.lastSeen)).toBeLessThan(15_000);
    const moved = await row();
    expect(moved.xmin).not.toBe(before.xmin);
    expect(started - moved.last_seen.getTime()).toBeLessThan(15_000);
    // Seen a moment ago: further requests note nothing, and the lists write nothing either.
    for (let i = 0; i < 20; i++) await as(sessionToken, 'stats.getStats');
    const current = (await as(sessionToken, 'account.getSession')).body.sessionData;
    expect(current.lastSeen).toBe(moved.last_seen.toISOString());
    expect((await row()).xmin).toBe(moved.xmin);
  });

  it('should revoke the whole family when a rotated refresh token is used again: both pairs are 401', async () => {
    const first = await ctx.session(47);
    const refresh = (refreshToken: string) => ctx.http().post('/v1/account.refreshSession').send({ refreshToken });
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.headers['cache-control']).toBe('no-store');
    const third = await refresh(second.body.refreshToken);
    expect(third.status).toBe(200);
    expect((await as(third.body.sessionToken, 'account.getSession')).status).toBe(200);
    // The thief replays the first refresh token (already rotated twice): refused, and the family ends.
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await as(third.body.sessionToken, 'account.getSession')).status).toBe(401);
    expect((await refresh(third.body.refreshToken)).status).toBe(401);
    expect((await as(first.sessionToken, 'account.getSession')).status).toBe(401);
    const [revoked] = await ctx.dataSource.query(
      'SELECT s.revoked_at, count(r.*)::int AS rotated FROM user_sessions s JOIN rotated_refresh_tokens r USING (session_id) WHERE s.account_id = 47 GROUP BY s.revoked_at',
    );
    expect(revoked.revoked_at).not.toBeNull();
    expect(revoked.rotated).toBe(2);
    // An unknown refresh token is a plain 401 and revokes nothing.
    const bystander = await ctx.session(47);
    expect((await refresh('rt_' + 'A'.repeat(43))).status).toBe(401);
    expect((await as(bystander.sessionToken, 'account.getSession')).status).toBe(200);
  });

  describe('streams end when their credential is revoked', () => {
    it('should end a stream opened with a session when that session is deleted, at once', async () => {
      const watcher = await ctx.session(48);
      const signedIn = await ctx.session(48);
      const stream = await sse('/v1/stats.subscribe', { Authorization: `Bearer ${watcher.sessionToken}` });
      await stream.waitFor((event) => event.event === 'stats-snapshot');
      const sessionId = await sessionIdOf(watcher.sessionToken);
      expect(ctx.app.get(CredentialStreams).count({ kind: 'session', sessionId })).toBe(1);
      const started = Date.now();
      expect((await as(signedIn.sessionToken, 'account.deleteSession', { sessionId })).status).toBe(200);
      // Ended before the delete answered.
      expect(await endsWithin(stream, started, 2_000)).toBeLessThan(2_000);
      expect(ctx.app.get(CredentialStreams).count({ kind: 'session', sessionId })).toBe(0);
    });

    it('should end a stream opened with a ticket when the key that minted it is revoked, and one opened with the key', async () => {
      const key = await ctx.apiKey(49);
      const ticket = (
        await ctx
          .http()
          .post('/v1/auth.createStreamTicket')
          .set('Authorization', `Bearer ${key}`)
          .send({ stream: 'activity.streamGlobalFeed' })
      ).body.ticket as string;
      const byTicket = await sse(`/v1/activity.streamGlobalFeed?ticket=${ticket}`);
      const byHeader = await sse('/v1/stats.subscribe', { Authorization: `Bearer ${key}` });
      const anonymous = await sse('/v1/stats.subscribe');
      await Promise.all([byTicket, byHeader, anonymous].map((s) => s.waitFor(() => true)));
      const [{ keyId }] = await ctx.app.get(ApiKeyService).listForAccount(49);
      const started = Date.now();
      expect(await ctx.app.get(ApiKeyService).revoke(keyId)).toBe(true);
      expect(await endsWithin(byTicket, started, 2_000)).toBeLessThan(2_000);
      expect(await endsWithin(byHeader, started, 2_000)).toBeLessThan(2_000);
      // Streams of other callers go on.
      await expect(endsWithin(anonymous, Date.now(), 300)).rejects.toThrow('still open');
      // The EventSource that reconnects is refused.
      expect((await sse('/v1/stats.subscribe', { Authorization: `Bearer ${key}` })).status).toBe(200);
      expect((await sse('/v1/account.subscribe?accountId=49', { Authorization: `Bearer ${key}` })).status).toBe(401);
    });

    it('should end a session’s stream on another API process within a second when the session logs out', async () => {
      // A second API process on the same stores: its own guard, streams and revocation subscriber.
      const other: INestApplication = await createHttpApp(ctx.config);
      await other.listen(0, '127.0.0.1');
      try {
        const otherPort = (other.getHttpServer().address() as AddressInfo).port;
        const { sessionToken } = await ctx.session(50);
        const stream = await sse('/v1/stats.subscribe', { Authorization: `Bearer ${sessionToken}` }, otherPort);
        await stream.waitFor((event) => event.event === 'stats-snapshot');
        const started = Date.now();
        expect((await as(sessionToken, 'account.logout')).status).toBe(204);
        expect(await endsWithin(stream, started, 1_000)).toBeLessThan(1_000);
        // The CLI's `session revoke` goes through the same service.
        const second = await ctx.session(50);
        const again = await sse('/v1/stats.subscribe', { Authorization: `Bearer ${second.sessionToken}` }, otherPort);
        await again.waitFor((event) => event.event === 'stats-snapshot');
        const revokedAt = Date.now();
        expect(await ctx.app.get(SessionService).revoke(await sessionIdOf(second.sessionToken))).toBe(true);
        expect(await endsWithin(again, revokedAt, 1_000)).toBeLessThan(1_000);
      } finally {
        await other.close();
      }
    });
  });
});

describe('a session’s absolute lifetime', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('sessions_abs', { SESSION_ABSOLUTE_DAYS: '1', REFRESH_TTL_DAYS: '30', SESSION_TTL_HOURS: '48' });
  });
  afterAll(() => ctx.close());

  const refresh = (refreshToken: string) => ctx.http().post('/v1/account.refreshSession').send({ refreshToken });

  it('should cap every expiry at the absolute lifetime and refuse a refresh past it', async () => {
    const { sessionToken, refreshToken } = await ctx.session(51);
    const [row] = await ctx.dataSource.query('SELECT created_at, expires_at, refresh_expires_at FROM user_sessions WHERE account_id = 51');
    const end = row.created_at.getTime() + 86_400_000;
    expect(row.expires_at.getTime()).toBe(end);
    expect(row.refresh_expires_at.getTime()).toBe(end);
    const refreshed = await refresh(refreshToken);
    expect(refreshed.status).toBe(200);
    expect(Date.parse(refreshed.body.sessionExpiresAt)).toBe(end);
    expect(Date.parse(refreshed.body.refreshExpiresAt)).toBe(end);
    expect((await ctx.http().post('/v1/account.getSession').set('Authorization', `Bearer ${sessionToken}`)).status).toBe(401);

    // A day after sign-in (its row moved back, its refresh token's own expiry still ahead), the refresh is refused.
    await ctx.dataSource.query(
      `UPDATE user_sessions SET created_at = now() - interval '25 hours', refresh_expires_at = now() + interval '29 days' WHERE account_id = 51`,
    );
    const late = await refresh(refreshed.body.refreshToken);
    expect(late.status).toBe(401);
  });
});
