/**
 * # The platform's OpenID 2.0 provider, simulated
 *
 * The platform signs users in for other sites with OpenID 2.0 (no OAuth): the site sends the browser to
 * `<community>/openid/login?openid.mode=checkid_setup&openid.return_to=…`, the user signs in there, and the platform
 * redirects back to `return_to` with a positive assertion (`openid.mode=id_res`, the account as `openid.claimed_id`
 * `https://steamcommunity.com/openid/id/<steamId64>`, a response nonce, and `openid.sig`: an HMAC over the fields
 * named by `openid.signed`). The site cannot check the signature itself (it holds no association): it POSTs the
 * same fields back with `openid.mode=check_authentication` and reads `is_valid:true|false` (key-value form).
 *
 * This provider plays both ends on the simulator's origin, at `/openid/login`:
 * - GET with `checkid_setup`: a login page (an HTML form) where one picks a simulated account; submitting it (POST,
 *   or GET with `account=N` for curl) answers 302 to `return_to` with the signed assertion, as the platform does.
 * - POST with `check_authentication`: `is_valid:true` when the signature is its own, `false` otherwise.
 *
 * The association secret is random per simulator instance. Like a stateless verifier it does not remember which
 * assertions it has confirmed: refusing a replayed assertion is the relying party's job (the service keeps used
 * nonces), so a replay test exercises the service, not the simulator.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { htmlError, type SimResponse } from '../handlers/http-response';
import { STEAM_ID_BASE } from '../universe/world';

export const OPENID_LOGIN_PATH = '/openid/login';
export const OPENID_NS = 'http://specs.openid.net/auth/2.0';
/** The platform names every account this way, whatever host served the login. */
export const OPENID_CLAIMED_ID_PREFIX = 'https://steamcommunity.com/openid/id/';
/** What the platform signs, in its order. */
export const OPENID_SIGNED_FIELDS = ['signed', 'op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];

/** The simulator's response plus a redirect target (302 when set). */
export interface OpenIdResponse extends SimResponse {
  location?: string;
}

/** OpenID's key-value form: `key:value\n` per line (the signature's input and check_authentication's answer). */
export function keyValueForm(pairs: [string, string][]): string {
  return pairs.map(([key, value]) => `${key}:${value}\n`).join('');
}

/** The nonce's timestamp, as OpenID 2.0 writes it: UTC to the second, then characters that make it unique. */
export function responseNonce(nowMs: number, unique: string): string {
  return `${new Date(Math.floor(nowMs / 1000) * 1000).toISOString().replace('.000Z', 'Z')}${unique}`;
}

export class OpenIdProvider {
  private readonly secret = randomBytes(32);
  readonly assocHandle = `sim${randomBytes(6).toString('hex')}`;
  private sequence = 0;

  constructor(
    private readonly accounts: number,
    private readonly clock: () => number,
  ) {}

  /** One request to `/openid/login`; `endpoint` is the URL it was reached at (the assertion's `op_endpoint`). */
  handle(method: string, query: URLSearchParams, body: URLSearchParams, endpoint: string): OpenIdResponse {
    const params = method === 'POST' ? body : query;
    const mode = params.get('openid.mode');
    if (mode === 'check_authentication' && method === 'POST') return this.checkAuthentication(params);
    if (mode !== 'checkid_setup') return htmlError(400, 'openid.mode must be checkid_setup (GET) or check_authentication (POST).');
    const returnTo = params.get('openid.return_to') ?? '';
    if (!/^https?:\/\//.test(returnTo)) return htmlError(400, 'openid.return_to must be an http(s) URL.');
    const account = params.get('account');
    if (account === null) return this.loginPage(params);
    const accountId = Number(account);
    if (!/^\d{1,7}$/.test(account) || accountId < 1 || accountId > this.accounts) {
      return htmlError(400, `account must be a simulated account, 1..${this.accounts}.`);
    }
    return { status: 302, body: '', contentType: 'text/plain; charset=utf-8', location: this.assertion(accountId, returnTo, endpoint) };
  }

  /** The redirect back to the relying party: `return_to` plus the signed positive assertion. */
  private assertion(accountId: number, returnTo: string, endpoint: string): string {
    const claimedId = `${OPENID_CLAIMED_ID_PREFIX}${(STEAM_ID_BASE + BigInt(accountId)).toString()}`;
    const fields: Record<string, string> = {
      ns: OPENID_NS,
      mode: 'id_res',
      op_endpoint: endpoint,
      claimed_id: claimedId,
      identity: claimedId,
      return_to: returnTo,
      response_nonce: responseNonce(this.clock(), `${(++this.sequence).toString(36)}${randomBytes(4).toString('hex')}`),
      assoc_handle: this.assocHandle,
      signed: OPENID_SIGNED_FIELDS.join(','),
    };
    fields.sig = this.sign(fields, OPENID_SIGNED_FIELDS);
    const url = new URL(returnTo);
    for (const [key, value] of Object.entries(fields)) url.searchParams.set(`openid.${key}`, value);
    return url.toString();
  }

  private sign(fields: Record<string, string | undefined>, signed: string[]): string {
    const input = keyValueForm(signed.map((name) => [name, fields[name] ?? '']));
    return createHmac('sha256', this.secret).update(input).digest('base64');
  }

  /** Direct verification: the same fields back; valid when the signature over the signed fields is this provider's. */
  private checkAuthentication(params: URLSearchParams): OpenIdResponse {
    const fields: Record<string, string | undefined> = {};
    for (const [key, value] of params) if (key.startsWith('openid.')) fields[key.slice('openid.'.length)] = value;
    const signed = (fields.signed ?? '').split(',').filter(Boolean);
    const expected = Buffer.from(this.sign(fields, signed));
    const given = Buffer.from(fields.sig ?? '');
    const valid =
      fields.assoc_handle === this.assocHandle &&
      OPENID_SIGNED_FIELDS.every((name) => signed.includes(name)) &&
      expected.length === given.length &&
      timingSafeEqual(expected, given);
    return {
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: keyValueForm([
        ['ns', OPENID_NS],
        ['is_valid', String(valid)],
      ]),
    };
  }

  /** A form that posts the request's own OpenID fields back with the chosen account. */
  private loginPage(params: URLSearchParams): OpenIdResponse {
    const hidden = [...params]
      .filter(([key]) => key.startsWith('openid.'))
      .map(([key, value]) => `<input type="hidden" name="${escape(key)}" value="${escape(value)}">`)
      .join('\n');
    const body = [
      '<!doctype html><html><head><title>Sign in (platform simulator)</title></head><body>',
      `<h1>Sign in to ${escape(new URL(params.get('openid.return_to') ?? '').origin)}</h1>`,
      `<form method="post" action="${OPENID_LOGIN_PATH}">`,
      hidden,
      `<label>Simulated account (1–${this.accounts}) <input type="number" name="account" min="1" max="${this.accounts}" value="1"></label>`,
      '<button type="submit">Sign in</button>',
      '</form></body></html>',
    ].join('\n');
    return { status: 200, body, contentType: 'text/html; charset=utf-8' };
  }
}

/** Bodies of `/openid/login` are small forms; anything larger is not a login. */
export const OPENID_BODY_LIMIT_BYTES = 16 * 1024;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
