import { existsSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { Browser, chromium } from 'playwright-core';
import { startTestApp, TestContext } from '../support/test-app';

/**
 * Swagger UI in a real browser: Debian's Chromium (`apt-get install -y chromium`; `.ci/run` installs it), driven
 * headless by playwright-core, which downloads no browser of its own.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('Swagger UI in a browser', () => {
  let ctx: TestContext;
  let browser: Browser;
  let base: string;
  let key: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
    [ctx, browser] = await Promise.all([startTestApp('swaggerui'), chromium.launch({ executablePath: CHROMIUM, headless: true })]);
    await ctx.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
    // As the README's first step: a key for account 1, which adds the account the examples name.
    key = await ctx.apiKey(1);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('should authorize with an API key and run account.getInfo from its example with a 200, and offer no run of a stream', async () => {
    const page = await browser.newPage();
    // A step that fails says which one within the test's time, instead of the whole test timing out.
    page.setDefaultTimeout(8_000);
    await page.goto(`${base}/docs`);
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input').fill(key);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const opblock = (path: string) => page.locator('.opblock', { has: page.locator(`.opblock-summary [data-path="${path}"]`) });
    const operation = opblock('/v1/account.getInfo');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    const body = await operation.locator('.live-responses-table tr.response .microlight').first().innerText();
    expect(JSON.parse(body)).toMatchObject({ accountId: 1 });

    const stream = opblock('/v1/account.subscribe');
    await stream.locator('.opblock-summary').click();
    await stream.locator('.opblock-description-wrapper').waitFor();
    expect(await stream.locator('button.try-out__btn').count()).toBe(0);
    expect(await stream.innerText()).toContain('EventSource');
  });
});
