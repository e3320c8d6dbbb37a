import { SMTPServer } from 'smtp-server';
import { captureLogs } from '../support/logs';
import { freePort } from '../support/ports';
import { startTestApp, TestContext } from '../support/test-app';
import { matchesDocument } from '../support/wire-answers';

/** One message as the SMTP server received it. */
interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-pa55-not-for-logs';
/** Recipients the test server treats badly: one refused outright, one whose message is never acknowledged in time. */
const REFUSED = 'refused@example.com';
const SLOW = 'slow@example.com';

/** A real SMTP server on a free port: authenticates the service, refuses or stalls the two bad recipients, keeps the rest. */
async function startSmtpServer(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    // A test server has no certificate the client would trust: plain SMTP, as on a local relay.
    disabledCommands: ['STARTTLS'],
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      callback(address.address === REFUSED ? Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 }) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        if (to.includes(SLOW)) return void setTimeout(() => callback(), 3_000).unref();
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to, user: session.user as string | undefined, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, received, close: () => new Promise<void>((resolve) => server.close(resolve)) };
}

function codeIn(message: Received): string {
  const match = /code to verify this address: (\d{6})/.exec(message.raw);
  if (!match) throw new Error(`no code in ${message.raw}`);
  return match[1];
}

/** A six-digit code other than `code`. */
function wrong(code: string, shift = 1): string {
  return String((Number(code) + shift) % 1_000_000).padStart(6, '0');
}

describe('e-mail through a real SMTP server', () => {
  let ctx: TestContext;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let logs: ReturnType<typeof captureLogs>;

  beforeAll(async () => {
    logs = captureLogs();
    smtp = await startSmtpServer();
    // socketTimeout: a stalled server is given up on after 1 s (the default is 10 s), as the URL's options allow.
    ctx = await startTestApp('email', {
      SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}?socketTimeout=1000`,
      MAIL_FROM: 'Badge Stats <no-reply@badge-stats.test>',
      LOG_LEVEL: 'info',
    });
  });
  afterAll(async () => {
    logs.restore();
    await ctx.close();
    await smtp.close();
  });

  const as = (token: string, op: string, body?: object) => {
    const req = ctx.http().post(`/v1/${op}`).set('Authorization', `Bearer ${token}`).expect(matchesDocument(op));
    return body === undefined ? req : req.send(body);
  };
  /** The address account.updateSettings would have set (another area's operation): written straight to the settings. */
  const setAddress = (accountId: number, email: string) =>
    ctx.dataSource.query('UPDATE account_settings SET email = $2, email_verified_at = NULL WHERE account_id = $1', [accountId, email]);
  const messagesTo = (email: string) => smtp.received.filter((message) => message.to.includes(email));

  it('should send a code to the account’s address and verify it once, showing emailVerifiedAt in account.getSettings', async () => {
    const { sessionToken } = await ctx.session(201);
    await setAddress(201, 'flo@example.com');
    const before = await as(sessionToken, 'account.getSettings');
    expect(before.body).toMatchObject({ email: 'flo@example.com', emailVerifiedAt: null });

    expect((await as(sessionToken, 'account.sendEmailVerification')).status).toBe(204);
    const [message] = messagesTo('flo@example.com');
    expect(message).toMatchObject({ from: 'no-reply@badge-stats.test', to: ['flo@example.com'], user: SMTP_USER });
    expect(message.raw).toMatch(/^From: Badge Stats <no-reply@badge-stats.test>/m);
    const code = codeIn(message);

    const stored: { code_hash: string }[] = await ctx.dataSource.query(
      'SELECT code_hash FROM email_verification_codes WHERE account_id = 201',
    );
    expect(stored[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].code_hash).not.toContain(code);

    const started = Date.now();
    expect((await as(sessionToken, 'account.verifyEmail', { code })).status).toBe(204);
    const after = (await as(sessionToken, 'account.getSettings')).body;
    expect(after.email).toBe('flo@example.com');
    expect(Date.parse(after.emailVerifiedAt)).toBeGreaterThanOrEqual(started - 5_000);

    const reused = await as(sessionToken, 'account.verifyEmail', { code });
    expect(reused.status).toBe(404);
    expect(reused.body.detail).toMatch(/No verification code is pending/);
    const again = await as(sessionToken, 'account.sendEmailVerification');
    expect(again.status).toBe(422);
    expect(again.body.detail).toMatch(/already verified/);
    expect(messagesTo('flo@example.com')).toHaveLength(1);
  });

  it('should void a code after five wrong tries, also when they race, and refuse the right one then', async () => {
    const { sessionToken } = await ctx.session(202);
    await setAddress(202, 'guess@example.com');
    expect((await as(sessionToken, 'account.sendEmailVerification')).status).toBe(204);
    const code = codeIn(messagesTo('guess@example.com')[0]);

    const first = await as(sessionToken, 'account.verifyEmail', { code: wrong(code) });
    expect(first.status).toBe(422);
    expect(first.body.errors).toEqual([expect.objectContaining({ location: 'body.code' })]);
    expect(first.body.detail).toMatch(/4 more wrong tries/);
    const raced = await Promise.all(
      Array.from({ length: 8 }, (_, i) => as(sessionToken, 'account.verifyEmail', { code: wrong(code, i + 2) })),
    );
    expect(raced.map((res) => res.status).sort()).toEqual([404, 404, 404, 404, 422, 422, 422, 422]);
    expect(raced.some((res) => /void now/.test(res.body.detail))).toBe(true);

    expect((await as(sessionToken, 'account.verifyEmail', { code })).status).toBe(404);
    expect((await as(sessionToken, 'account.getSettings')).body.emailVerifiedAt).toBeNull();
    expect(await ctx.dataSource.query('SELECT 1 FROM email_verification_codes WHERE account_id = 202')).toEqual([]);
  });

  it('should bind a code to the address it was sent to: a changed address voids it', async () => {
    const { sessionToken } = await ctx.session(203);
    await setAddress(203, 'old@example.com');
    expect((await as(sessionToken, 'account.sendEmailVerification')).status).toBe(204);
    const code = codeIn(messagesTo('old@example.com')[0]);
    await setAddress(203, 'new@example.com');
    const refused = await as(sessionToken, 'account.verifyEmail', { code });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toMatch(/address changed/);
    expect((await as(sessionToken, 'account.getSettings')).body).toMatchObject({ email: 'new@example.com', emailVerifiedAt: null });
  });

  it('should send at most five codes an hour per account (429 with Retry-After), each replacing the one before', async () => {
    const { sessionToken } = await ctx.session(204);
    await setAddress(204, 'busy@example.com');
    for (let i = 0; i < 5; i++) expect((await as(sessionToken, 'account.sendEmailVerification')).status).toBe(204);
    const limited = await as(sessionToken, 'account.sendEmailVerification');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    expect(limited.headers['content-type']).toMatch(/application\/problem\+json/);
    const codes = messagesTo('busy@example.com').map(codeIn);
    expect(codes).toHaveLength(5);
    const [firstCode, lastCode] = [codes[0], codes[4]];
    if (firstCode !== lastCode) expect((await as(sessionToken, 'account.verifyEmail', { code: firstCode })).status).toBe(422);
    expect((await as(sessionToken, 'account.verifyEmail', { code: lastCode })).status).toBe(204);
    // Another account has its own allowance.
    const other = await ctx.session(214);
    await setAddress(214, 'other@example.com');
    expect((await as(other.sessionToken, 'account.sendEmailVerification')).status).toBe(204);
  });

  it('should answer 503 with Retry-After when the mail server refuses or stalls, and leave no usable code', async () => {
    for (const [accountId, address] of [
      [205, REFUSED],
      [206, SLOW],
    ] as const) {
      const { sessionToken } = await ctx.session(accountId);
      await setAddress(accountId, address);
      const started = Date.now();
      const failed = await as(sessionToken, 'account.sendEmailVerification');
      expect({ address, status: failed.status }).toEqual({ address, status: 503 });
      expect(Date.now() - started).toBeLessThan(2_900);
      expect(Number(failed.headers['retry-after'])).toBeGreaterThan(0);
      expect(failed.body.detail).toMatch(/no code was sent/);
      expect(await ctx.dataSource.query('SELECT 1 FROM email_verification_codes WHERE account_id = $1', [accountId])).toEqual([]);
      expect((await as(sessionToken, 'account.verifyEmail', { code: '123456' })).status).toBe(404);
    }
  });

  it('should answer 404 to an account without an address, and send nothing', async () => {
    const { sessionToken } = await ctx.session(207);
    const count = smtp.received.length;
    const res = await as(sessionToken, 'account.sendEmailVerification');
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/no e-mail address/);
    expect((await as(sessionToken, 'account.verifyEmail', { code: '123456' })).status).toBe(404);
    expect(smtp.received.length).toBe(count);
  });

  it('should set the newsletter flag, at the account’s own address only', async () => {
    const { sessionToken } = await ctx.session(208);
    await setAddress(208, 'news@example.com');
    expect((await as(sessionToken, 'account.getSettings')).body.subscribed).toBe(false);
    expect((await as(sessionToken, 'account.subscribeEmail', { subscribed: true })).status).toBe(204);
    expect((await as(sessionToken, 'account.getSettings')).body.subscribed).toBe(true);
    const foreign = await as(sessionToken, 'account.subscribeEmail', { email: 'someone@example.com', subscribed: false });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([expect.objectContaining({ location: 'body.email' })]);
    expect((await as(sessionToken, 'account.getSettings')).body.subscribed).toBe(true);
    expect((await as(sessionToken, 'account.subscribeEmail', { email: 'NEWS@example.com', subscribed: false })).status).toBe(204);
    expect((await as(sessionToken, 'account.getSettings')).body.subscribed).toBe(false);
    expect((await as(sessionToken, 'account.subscribeEmail', { email: null, subscribed: true })).status).toBe(204);
    expect((await as(sessionToken, 'account.getSettings')).body.subscribed).toBe(true);
  });

  it('should refuse invalid bodies with a 422 naming the field, and change nothing', async () => {
    const { sessionToken } = await ctx.session(209);
    await setAddress(209, 'strict@example.com');
    const cases: [string, object, string][] = [
      ['account.verifyEmail', { code: '12345' }, 'body.code'],
      ['account.verifyEmail', { code: 123456 }, 'body.code'],
      ['account.verifyEmail', { code: '12345a' }, 'body.code'],
      ['account.verifyEmail', {}, 'body.code'],
      ['account.subscribeEmail', { subscribed: 'yes' }, 'body.subscribed'],
      ['account.subscribeEmail', { subscribed: true, email: 'not an address' }, 'body.email'],
      ['account.subscribeEmail', { subscribed: true, email: `${'a'.repeat(250)}@example.com` }, 'body.email'],
      ['account.sendEmailVerification', { email: 'x@example.com' }, 'body'],
    ];
    for (const [op, body, location] of cases) {
      const res = await as(sessionToken, op, body);
      expect({ op, body, status: res.status }).toEqual({ op, body, status: 422 });
      expect(res.body.errors.map((e: { location: string }) => e.location).join(' ')).toContain(location);
    }
    expect((await as(sessionToken, 'account.getSettings')).body).toMatchObject({ subscribed: false, emailVerifiedAt: null });
    expect(await ctx.dataSource.query('SELECT 1 FROM email_verification_codes WHERE account_id = 209')).toEqual([]);
  });

  it('should take user sessions only', async () => {
    const key = await ctx.apiKey(210);
    for (const [op, body] of [
      ['account.sendEmailVerification', undefined],
      ['account.verifyEmail', { code: '123456' }],
      ['account.subscribeEmail', { subscribed: true }],
    ] as const) {
      expect({ op, status: (await as(key, op, body)).status }).toEqual({ op, status: 401 });
    }
  });

  it('should never log the SMTP password or a code it sent', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const all = logs.lines.join('\n');
    expect(all).toContain('e-mail transport: SMTP smtp://***@127.0.0.1');
    expect(all).not.toContain(SMTP_PASSWORD);
    const codes = smtp.received.map(codeIn);
    expect(codes.length).toBeGreaterThan(5);
    for (const code of codes) expect(all).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});

describe('e-mail without an SMTP server (the development transport)', () => {
  let ctx: TestContext;
  let logs: ReturnType<typeof captureLogs>;

  beforeAll(async () => {
    logs = captureLogs();
    ctx = await startTestApp('email_log', { LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    logs.restore();
    await ctx.close();
  });

  it('should say at boot that codes go to the log, write one line naming the recipient and the code, and verify with it', async () => {
    expect(logs.lines.join('\n')).toMatch(/e-mail transport: none: SMTP_URL is not set/);
    const { sessionToken } = await ctx.session(301);
    await ctx.dataSource.query("UPDATE account_settings SET email = 'dev@example.com' WHERE account_id = 301");
    const auth = { Authorization: `Bearer ${sessionToken}` };
    expect((await ctx.http().post('/v1/account.sendEmailVerification').set(auth)).status).toBe(204);
    const lines = logs.lines.map((line) => JSON.parse(line)).filter((entry) => entry.code !== undefined && entry.to !== undefined);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        context: 'Mailer',
        to: 'dev@example.com',
        msg: expect.stringMatching(/SMTP_URL is not set/),
      }),
    ]);
    const { code } = lines[0] as { code: string };
    expect(code).toMatch(/^\d{6}$/);
    expect((await ctx.http().post('/v1/account.verifyEmail').set(auth).send({ code })).status).toBe(204);
    expect((await ctx.http().post('/v1/account.getSettings').set(auth)).body.emailVerifiedAt).toEqual(expect.any(String));
  });
});
