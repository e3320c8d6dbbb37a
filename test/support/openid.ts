/** Signs in through the simulator's OpenID provider the way a browser does: the login page, its form, the redirect. */

const NS = 'http://specs.openid.net/auth/2.0';
const SELECT = 'http://specs.openid.net/auth/2.0/identifier_select';

/** The `openid.*` parameters of the provider's redirect to `returnTo`, as account.login's body (`openid_<name>`). */
export async function simulatorAssertion(simulatorUrl: string, accountId: number, returnTo: string): Promise<Record<string, string>> {
  const start = new URL('/openid/login', simulatorUrl);
  for (const [key, value] of Object.entries({
    'openid.ns': NS,
    'openid.mode': 'checkid_setup',
    'openid.return_to': returnTo,
    'openid.realm': new URL(returnTo).origin,
    'openid.identity': SELECT,
    'openid.claimed_id': SELECT,
  })) {
    start.searchParams.set(key, value);
  }
  const page = await fetch(start);
  if (page.status !== 200) throw new Error(`login page answered ${page.status}`);
  const html = await page.text();
  // Submit the page's own form, as a browser would: its action, its hidden fields, the chosen account.
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error('the login page has no form');
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(unescape(match[1]), unescape(match[2]));
  form.set('account', String(accountId));
  const submitted = await fetch(new URL(action, simulatorUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  if (submitted.status !== 302) throw new Error(`the login form answered ${submitted.status}`);
  const location = new URL(submitted.headers.get('location') ?? '');
  if (location.origin + location.pathname !== new URL(returnTo).origin + new URL(returnTo).pathname) {
    throw new Error(`redirected to ${location.href}, not to return_to`);
  }
  const body: Record<string, string> = {};
  for (const [key, value] of location.searchParams) if (key.startsWith('openid.')) body[`openid_${key.slice('openid.'.length)}`] = value;
  return body;
}

function unescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
}
