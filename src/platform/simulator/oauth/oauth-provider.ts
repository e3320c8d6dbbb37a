/**
 * # The OAuth 2.0 providers, simulated
 *
 * The service links accounts of other services (account.createConnection) through the authorization-code flow
 * (RFC 6749 §4.1). This plays each provider of `OAUTH_PROVIDERS` on the simulator's origin, so the whole flow runs
 * locally and in tests:
 * - `GET /oauth/<provider>/authorize?response_type=code&client_id=…&redirect_uri=…&state=…`: a page to pick the
 *   simulated account (1..N); submitting it (POST, or GET with `account=N` for curl) answers 302 to `redirect_uri`
 *   with `code` and `state`.
 * - `POST /oauth/<provider>/token` (form: `grant_type=authorization_code`, `code`, `redirect_uri`; the client by HTTP
 *   Basic or `client_id`/`client_secret` in the form): `{access_token, token_type, expires_in, refresh_token, scope}`.
 *   A code is single-use, valid 10 minutes, bound to its client and `redirect_uri` (`invalid_grant` otherwise);
 *   a wrong client is `invalid_client` (401).
 * - `GET /oauth/<provider>/userinfo` with `Authorization: Bearer <access_token>`: the user in the provider's own shape
 *   (oauth-identities.ts; Twitch's also wants `Client-Id`).
 * Identities are a pure function of (provider, account); codes and tokens are random and kept in memory (bounded).
 */
import { randomBytes } from 'node:crypto';
import { OAUTH_PROVIDERS, type OAuthProviderName, SIMULATOR_OAUTH_CLIENT } from '../../../config/connections-config';
import { htmlError, type SimResponse } from '../handlers/http-response';
import { simulatedIdentity, userInfoBody } from './oauth-identities';

export const OAUTH_PATH_PREFIX = '/oauth/';
const CODE_TTL_MS = 10 * 60_000;
const TOKEN_TTL_MS = 60 * 60_000;
/** Codes and tokens kept at most; the oldest go first. */
const MAX_KEPT = 10_000;

export interface OAuthResponse extends SimResponse {
  location?: string;
}

interface Grant {
  provider: OAuthProviderName;
  accountId: number;
  clientId: string;
  redirectUri: string;
  expiresAt: number;
}

const json = (status: number, value: unknown): OAuthResponse => ({
  status,
  body: JSON.stringify(value),
  contentType: 'application/json; charset=utf-8',
});

export class OAuthProviders {
  private readonly codes = new Map<string, Grant>();
  private readonly tokens = new Map<string, Grant>();

  constructor(
    private readonly accounts: number,
    private readonly clock: () => number,
    private readonly client: { clientId: string; clientSecret: string } = SIMULATOR_OAUTH_CLIENT,
  ) {}

  /** One request under `/oauth/`; `origin` is where it was reached (avatar URLs name it). */
  handle(
    method: string,
    path: string,
    query: URLSearchParams,
    body: URLSearchParams,
    headers: Record<string, string | undefined>,
    origin: string,
  ): OAuthResponse {
    const [, , name, action] = path.split('/');
    if (!(OAUTH_PROVIDERS as readonly string[]).includes(name)) return htmlError(404, 'No such OAuth provider.');
    const provider = name as OAuthProviderName;
    if (action === 'authorize' && (method === 'GET' || method === 'POST'))
      return this.authorize(provider, method === 'POST' ? body : query);
    if (action === 'token' && method === 'POST') return this.token(provider, body, headers.authorization);
    if (action === 'userinfo' && method === 'GET') return this.userInfo(provider, headers, origin);
    return htmlError(404, 'No such OAuth endpoint.');
  }

  private authorize(provider: OAuthProviderName, params: URLSearchParams): OAuthResponse {
    const redirectUri = params.get('redirect_uri') ?? '';
    if (params.get('response_type') !== 'code') return htmlError(400, 'response_type must be code.');
    if (params.get('client_id') !== this.client.clientId) return htmlError(400, 'Unknown client_id.');
    if (!/^https?:\/\//.test(redirectUri)) return htmlError(400, 'redirect_uri must be an http(s) URL.');
    const account = params.get('account');
    if (account === null) return this.page(provider, params);
    const accountId = Number(account);
    if (!/^\d{1,7}$/.test(account) || accountId < 1 || accountId > this.accounts)
      return htmlError(400, `account must be a simulated account, 1..${this.accounts}.`);
    const code = randomBytes(18).toString('base64url');
    keep(this.codes, code, { provider, accountId, clientId: this.client.clientId, redirectUri, expiresAt: this.clock() + CODE_TTL_MS });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    return { status: 302, body: '', contentType: 'text/plain; charset=utf-8', location: target.toString() };
  }

  private token(provider: OAuthProviderName, form: URLSearchParams, authorization: string | undefined): OAuthResponse {
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    if (authorization?.startsWith('Basic ')) {
      const [user, password] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
      [clientId, clientSecret] = [
        decodeURIComponent((user ?? '').replace(/\+/g, ' ')),
        decodeURIComponent((password ?? '').replace(/\+/g, ' ')),
      ];
    }
    if (clientId !== this.client.clientId || clientSecret !== this.client.clientSecret) return json(401, { error: 'invalid_client' });
    if (form.get('grant_type') !== 'authorization_code') return json(400, { error: 'unsupported_grant_type' });
    const code = form.get('code') ?? '';
    const grant = this.codes.get(code);
    // Single use: gone once asked for, whether or not the rest matches (RFC 6749 §4.1.2).
    this.codes.delete(code);
    if (!grant || grant.provider !== provider || grant.expiresAt < this.clock() || grant.redirectUri !== form.get('redirect_uri'))
      return json(400, { error: 'invalid_grant' });
    const accessToken = randomBytes(24).toString('base64url');
    keep(this.tokens, accessToken, { ...grant, expiresAt: this.clock() + TOKEN_TTL_MS });
    return json(200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_MS / 1000,
      refresh_token: randomBytes(24).toString('base64url'),
      scope: 'identify',
    });
  }

  private userInfo(provider: OAuthProviderName, headers: Record<string, string | undefined>, origin: string): OAuthResponse {
    const bearer = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
    const grant = this.tokens.get(bearer);
    if (!grant || grant.provider !== provider || grant.expiresAt < this.clock()) return json(401, { error: 'invalid_token' });
    if (provider === 'twitch' && headers['client-id'] !== grant.clientId) return json(401, { error: 'Client-Id header required' });
    return json(200, userInfoBody(provider, simulatedIdentity(provider, grant.accountId, origin)));
  }

  private page(provider: OAuthProviderName, params: URLSearchParams): OAuthResponse {
    const hidden = [...params].map(([key, value]) => `<input type="hidden" name="${escape(key)}" value="${escape(value)}">`).join('');
    const body =
      `<!doctype html><html><head><title>Sign in to ${provider} (simulated)</title></head><body>` +
      `<h1>${provider} (simulated)</h1><p>Allow the app to know who you are on ${provider}.</p>` +
      `<form method="post" action="${OAUTH_PATH_PREFIX}${provider}/authorize">${hidden}` +
      `<label>Account (1..${this.accounts}) <input name="account" value="1"></label> <button type="submit">Allow</button></form></body></html>`;
    return { status: 200, body, contentType: 'text/html; charset=utf-8' };
  }
}

function keep(map: Map<string, Grant>, key: string, grant: Grant): void {
  if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!);
  map.set(key, grant);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
