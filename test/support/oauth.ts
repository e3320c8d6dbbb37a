import { SIMULATOR_OAUTH_CLIENT } from '../../src/config/connections-config';

/**
 * The browser's part of an OAuth connection through the simulator's provider: its authorize page, the page's form
 * submitted for a simulated account, and the code of the redirect back to `redirectUri`.
 */
export async function simulatorOAuthCode(
  simulatorUrl: string,
  redirectUri: string,
  provider: string,
  simulatedAccount: number,
): Promise<string> {
  const start = new URL(`${simulatorUrl}/oauth/${provider}/authorize`);
  const state = `st${simulatedAccount}`;
  for (const [key, value] of Object.entries({
    response_type: 'code',
    client_id: SIMULATOR_OAUTH_CLIENT.clientId,
    redirect_uri: redirectUri,
    scope: 'identify',
    state,
  }))
    start.searchParams.set(key, value);
  const page = await fetch(start);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1];
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(match[1], match[2].replace(/&amp;/g, '&'));
  form.set('account', String(simulatedAccount));
  const submitted = await fetch(new URL(action, simulatorUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(submitted.status).toBe(302);
  const back = new URL(submitted.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  expect(back.searchParams.get('state')).toBe(state);
  return back.searchParams.get('code')!;
}
