import { serviceUnavailable, unprocessable } from '../../common/problem/problem.exception';
import { OAuthIdentity, OAuthProvider } from './oauth-providers';

/** One answer of a provider: at most this many bytes are read (a token or a user is far smaller). */
const ANSWER_LIMIT_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

/**
 * The OAuth 2.0 authorization-code exchange (RFC 6749 §4.1.3) and the provider's user-info read, on Node's fetch:
 * two standard requests. A library (openid-client, simple-oauth2) would add its own HTTP stack for them and still
 * need a per-provider user-info reader (none of these providers but Google speaks OpenID Connect's userinfo).
 * The tokens live only inside this function: nothing stores or logs them, and no error message carries them.
 */
export async function exchangeCodeForIdentity(provider: OAuthProvider, code: string, redirectUri: string): Promise<OAuthIdentity> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  const { clientId, clientSecret } = provider.client;
  if (provider.clientAuth === 'basic') {
    // RFC 6749 §2.3.1: each part form-encoded before the Basic encoding.
    const user = encodeURIComponent(clientId).replace(/%20/g, '+');
    const password = encodeURIComponent(clientSecret).replace(/%20/g, '+');
    headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  } else {
    form.set('client_id', clientId);
    form.set('client_secret', clientSecret);
  }
  const token = await call(provider, provider.tokenUrl, { method: 'POST', headers, body: form.toString() });
  if (token.status === 400 || token.status === 401) {
    // invalid_grant (a wrong, used or expired code, or another redirect_uri), invalid_client (the service's setup).
    const error = typeof token.body?.error === 'string' ? token.body.error : 'refused';
    if (error === 'invalid_client' || token.status === 401)
      throw serviceUnavailable(`The ${provider.name} connection is misconfigured on this service (the provider refused its client).`);
    throw unprocessable(`${provider.name} refused the code (${error.slice(0, 40)}): it may be used, expired or from another sign-in.`, [
      { location: 'body.code', message: `${provider.name} refused it` },
    ]);
  }
  const accessToken = token.status === 200 && typeof token.body?.access_token === 'string' ? token.body.access_token : null;
  if (!accessToken) throw providerFault(provider, `its token endpoint answered ${token.status}`);
  const userHeaders: Record<string, string> = { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' };
  if (provider.clientIdHeader) userHeaders[provider.clientIdHeader] = clientId;
  const user = await call(provider, provider.userInfoUrl, { method: 'GET', headers: userHeaders });
  if (user.status !== 200) throw providerFault(provider, `its user endpoint answered ${user.status}`);
  const identity = provider.identity(user.body);
  if (!identity) throw providerFault(provider, 'its user endpoint named no user');
  return identity;
}

function providerFault(provider: OAuthProvider, what: string) {
  return serviceUnavailable(`${provider.name} could not be asked who you are (${what}); try again later.`, 30);
}

/** One request, not redirected, its JSON answer read up to the limit (null when it is not JSON). */
async function call(
  provider: OAuthProvider,
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : 'unreachable';
    throw providerFault(provider, reason);
  }
  let bytes: Buffer | null;
  try {
    bytes = await readLimited(response);
  } catch {
    throw providerFault(provider, 'its answer broke off');
  }
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = bytes === null ? null : JSON.parse(bytes.toString('utf8'));
    body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/** The answer's bytes, or null when it is larger than ANSWER_LIMIT_BYTES (then the rest is not read). */
async function readLimited(response: Response): Promise<Buffer | null> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.length;
    if (size > ANSWER_LIMIT_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(Buffer.from(value));
  }
}
