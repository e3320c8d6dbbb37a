import { existsSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { Browser, chromium } from 'playwright-core';
import { startTestApp, TestContext } from '../support/test-app';

/** Debian's Chromium, as for Swagger UI (test/e2e/swagger-ui.e2e.spec.ts); `.ci/run` installs it. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The queue dashboard (Bull Board under /admin/queues): staff sessions open it through a one-use link; nobody else. */
describe('queue dashboard', () => {
  let ctx: TestContext;
  let browser: Browser;
  let base: string;
  let staff: string;
  let plain: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
    [ctx, browser] = await Promise.all([startTestApp('dashboard'), chromium.launch({ executablePath: CHROMIUM, headless: true })]);
    await ctx.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
    staff = (await ctx.session(901)).sessionToken;
    plain = (await ctx.session(902)).sessionToken;
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (901, 'staff')`);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  const ticket = (credential: string | null) => {
    const req = ctx.http().post('/v1/operator.createDashboardTicket');
    return credential ? req.set('Authorization', `Bearer ${credential}`) : req;
  };
  /** The link, on the address the test server listens on (PUBLIC_BASE_URL is the tests' http://api.test). */
  const link = async () => {
    const res = await ticket(staff).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const url = new URL(res.body.url);
    expect(url.pathname).toBe('/admin/queues');
    return `${base}${url.pathname}${url.search}`;
  };

  it('should give links to staff sessions only', async () => {
    await ticket(null).expect(401);
    await ticket(await ctx.apiKey(901)).expect(401);
    await ticket(plain).expect(403);
    const res = await ticket(staff).expect(200);
    expect(res.body).toMatchObject({
      url: expect.stringMatching(/^http:\/\/api\.test\/admin\/queues\?ticket=dtk_/),
      expiresAt: expect.any(String),
    });
  });

  it('should refuse the dashboard, its assets and its API to anyone without the cookie', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues', '/admin/queues/static/js/main.js']) {
      const res = await ctx.http().get(path);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.text).not.toContain('account-update');
    }
    await ctx.http().get('/admin/queues').set('Cookie', 'queue_dashboard=dck_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').expect(401);
    await ctx.http().get('/admin/queues').set('Authorization', `Bearer ${staff}`).expect(401);
    await ctx.http().get('/admin/queues?ticket=dtk_nope').expect(401);
  });

  it('should render in Chromium for a staff session, with every queue, and refuse another browser the same link', async () => {
    const url = await link();
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    const opened = await page.goto(url);
    expect(opened?.status()).toBe(200);
    // The ticket left the address bar for the cookie.
    expect(new URL(page.url()).search).toBe('');
    for (const queue of ['account-update', 'group-refresh', 'market-pricing', 'webhook-delivery']) {
      await page.getByText(queue, { exact: false }).first().waitFor();
    }
    await page.screenshot({ path: '/tmp/queue-dashboard.png', fullPage: false });
    // Bull Board's own scripts and styles ran; only the web font it links from another host is refused.
    expect(blocked.filter((text) => !text.includes('fonts.googleapis.com'))).toEqual([]);
    const cookies = await context.cookies();
    expect(cookies).toEqual([
      expect.objectContaining({ name: 'queue_dashboard', path: '/admin/queues', httpOnly: true, sameSite: 'Strict' }),
    ]);

    // The link was spent: another browser opening it is refused.
    const other = await browser.newContext();
    const refused = await (await other.newPage()).goto(url);
    expect(refused?.status()).toBe(401);
    await other.close();

    // Staff no more: the cookie opens nothing from the next request on.
    await ctx.dataSource.query(`DELETE FROM account_roles WHERE account_id = 901`);
    expect((await page.reload())?.status()).toBe(401);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES (901, 'staff')`);
    await context.close();
  });
});
