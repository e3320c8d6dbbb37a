/**
 * The configuration of linked accounts (src/connections): the OAuth providers' clients and endpoints, and how a domain
 * is checked. app-config.ts reads the variables (it alone reads the environment); this validates and completes them.
 */

/** The OAuth providers a connection can be made with (`domain` is proven otherwise). */
export const OAUTH_PROVIDERS = ['discord', 'patreon', 'kick', 'reddit', 'twitch', 'youtube', 'x'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

/** The client the simulator's OAuth providers know (src/platform/simulator/oauth), used when no provider is configured. */
export const SIMULATOR_OAUTH_CLIENT = { clientId: 'badge-stats-local', clientSecret: 'badge-stats-local-secret' } as const;

/** One provider's client, and the endpoints that replace the provider's own (all three, or none). */
export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  userInfoUrl?: string;
}

export interface ConnectionsConfig {
  /** The configured providers; one left out is not offered (createConnection answers 403). */
  oauth: Partial<Record<OAuthProviderName, OAuthClientConfig>>;
  /** The `redirect_uri` the web app sent the user to the provider with; the token exchange must name the same. */
  redirectUri: string;
  /** Connections an account may create (and reconnect) in any rolling hour; past it 429. */
  createsPerHour: number;
  /** DNS servers (`ip` or `ip:port`) asked for a domain's TXT record and addresses; empty: the system's. */
  dnsServers: string[];
  /** The port of `https://<domain>/.well-known/…` (443; tests serve it elsewhere). */
  httpsPort: number;
  /** A PEM file of extra certificate authorities trusted for that request (tests' self-signed ones), or null. */
  extraCaFile: string | null;
}

const URL_FIELDS = ['authorizeUrl', 'tokenUrl', 'userInfoUrl'] as const;

/** The variables as app-config.ts read them (the text ones raw), and what it knows already. */
export interface ConnectionsConfigInput {
  oauthProviders: string | undefined;
  redirectUri: string | undefined;
  dnsServers: string | undefined;
  extraCaFile: string | undefined;
  createsPerHour: number;
  httpsPort: number;
  /** Where the simulator is when it plays the platform (no platform key), else null. */
  simulatorUrl: string | null;
  webAppOrigin: string;
  fail: (message: string) => Error;
}

export function connectionsConfig(input: ConnectionsConfigInput): ConnectionsConfig {
  const context = input;
  const { fail } = input;
  const raw = input.oauthProviders?.trim();
  let oauth: ConnectionsConfig['oauth'] = {};
  if (raw) oauth = parseProviders(raw, fail);
  else if (context.simulatorUrl) {
    // No platform key and nothing configured: the simulator plays every provider, so the flow runs locally.
    for (const provider of OAUTH_PROVIDERS) {
      const base = `${context.simulatorUrl}/oauth/${provider}`;
      oauth[provider] = {
        ...SIMULATOR_OAUTH_CLIENT,
        authorizeUrl: `${base}/authorize`,
        tokenUrl: `${base}/token`,
        userInfoUrl: `${base}/userinfo`,
      };
    }
  }
  const redirectUri = input.redirectUri?.trim() || `${context.webAppOrigin}/settings/connections/callback`;
  if (!isHttpUrl(redirectUri)) throw fail(`OAUTH_REDIRECT_URI must be an http(s) URL, got "${redirectUri}"`);
  const dnsServers = (input.dnsServers ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  for (const server of dnsServers)
    if (!/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(server))
      throw fail(`DOMAIN_VERIFY_DNS_SERVERS must list IP addresses (ip or ip:port), got "${server}"`);
  return {
    oauth,
    redirectUri,
    createsPerHour: input.createsPerHour,
    dnsServers,
    httpsPort: input.httpsPort,
    extraCaFile: input.extraCaFile?.trim() || null,
  };
}

/** `{"discord": {"clientId": "…", "clientSecret": "…", "tokenUrl"?: …}, …}`; the secrets are never echoed. */
function parseProviders(raw: string, fail: ConnectionsConfigInput['fail']): ConnectionsConfig['oauth'] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fail('OAUTH_PROVIDERS must be a JSON object: {"<provider>": {"clientId": "…", "clientSecret": "…"}}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw fail('OAUTH_PROVIDERS must be a JSON object');
  const oauth: ConnectionsConfig['oauth'] = {};
  for (const [name, spec] of Object.entries(parsed as Record<string, unknown>)) {
    if (!(OAUTH_PROVIDERS as readonly string[]).includes(name))
      throw fail(`OAUTH_PROVIDERS names an unknown provider "${name}" (known: ${OAUTH_PROVIDERS.join(', ')})`);
    const entry = (spec ?? {}) as Record<string, unknown>;
    if (typeof entry.clientId !== 'string' || !entry.clientId || typeof entry.clientSecret !== 'string' || !entry.clientSecret)
      throw fail(`OAUTH_PROVIDERS.${name} needs a clientId and a clientSecret`);
    const given = URL_FIELDS.filter((field) => entry[field] !== undefined);
    if (given.length && given.length !== URL_FIELDS.length)
      throw fail(`OAUTH_PROVIDERS.${name}: give ${URL_FIELDS.join(', ')} together, or none`);
    for (const field of given)
      if (typeof entry[field] !== 'string' || !isHttpUrl(entry[field]))
        throw fail(`OAUTH_PROVIDERS.${name}.${field} must be an http(s) URL`);
    const unknown = Object.keys(entry).filter((key) => !['clientId', 'clientSecret', ...URL_FIELDS].includes(key));
    if (unknown.length) throw fail(`OAUTH_PROVIDERS.${name} has unknown fields: ${unknown.join(', ')}`);
    oauth[name as OAuthProviderName] = entry as unknown as OAuthClientConfig;
  }
  return oauth;
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
