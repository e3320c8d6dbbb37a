import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { htmlError, type SimResponse } from './handlers/http-response';
import { route } from './handlers/router';
import { OPENID_BODY_LIMIT_BYTES, OPENID_LOGIN_PATH, OpenIdProvider, type OpenIdResponse } from './openid/openid-provider';
import { Universe } from './universe/universe';
import { OAUTH_PATH_PREFIX, OAuthProviders } from './oauth/oauth-provider';

export interface SimulatorOptions {
  seed: number;
  /** Accounts 1..accounts exist. */
  accounts: number;
  /** Added to every response. */
  latencyMs?: number;
  /** Non-null: Web API calls without key=<apiKey> get 403. Null/absent: any key or none. */
  apiKey?: string | null;
  /** Length of one tick of simulated activity (default 60,000). */
  tickMs?: number;
  /** Wall clock (default Date.now); inject to move time in tests. */
  clock?: () => number;
  /**
   * The OpenID provider's clock, for its nonces: wall-clock time by default, not `clock`. The service checks a nonce's
   * age against its own clock, as it would against the platform's, so a test that moves the simulated clock still
   * signs in; a test of stale assertions sets this.
   */
  openIdClock?: () => number;
  /** Start of tick 0 (default 2025-01-01T00:00Z). Set near "now" with a small tickMs for a fast-moving world. */
  epochMs?: number;
  /** Count the requests served per path (see requestsFor); off by default, since paths name accounts. */
  countRequests?: boolean;
}

/**
 * The platform's public Web API and community endpoints over a synthetic, deterministic universe, on node:http.
 * The tick is read from the clock per request, so responses for the same seed, options and clock are identical.
 */
export class PlatformSimulator {
  readonly universe: Universe;
  /** The platform's sign-in (OpenID 2.0) at `/openid/login`: see openid/openid-provider.ts. */
  readonly openId: OpenIdProvider;
  /** The OAuth 2.0 providers of account connections at `/oauth/<provider>/…`: see oauth/oauth-provider.ts. */
  readonly oauth: OAuthProviders;
  private readonly clock: () => number;
  private readonly latencyMs: number;
  private readonly apiKey: string | null;
  private server: Server | null = null;
  private readonly pending = new Set<NodeJS.Timeout>();
  /** Requests served per path (query string left out) when counting is on, for tests that count what a client asked. */
  private readonly served: Map<string, number> | null;

  constructor(opts: SimulatorOptions) {
    this.universe = new Universe({ seed: opts.seed, accounts: opts.accounts, tickMs: opts.tickMs, epochMs: opts.epochMs });
    this.clock = opts.clock ?? Date.now;
    this.latencyMs = Math.max(0, opts.latencyMs ?? 0);
    this.apiKey = opts.apiKey ?? null;
    this.served = opts.countRequests ? new Map() : null;
    this.openId = new OpenIdProvider(opts.accounts, opts.openIdClock ?? Date.now);
    this.oauth = new OAuthProviders(opts.accounts, opts.openIdClock ?? Date.now);
  }

  /** The tick the next request will see. */
  currentTick(): number {
    return this.universe.tickAt(this.clock());
  }

  /** How many requests were served for this exact path (no query string), e.g. `/gid/103582791429521409/memberslistxml/`. */
  requestsFor(path: string): number {
    if (!this.served) throw new Error('construct the simulator with countRequests: true to count requests');
    return this.served.get(path) ?? 0;
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    if (this.server) return Promise.reject(new Error('simulator is already listening'));
    const server = createServer((req, res) => this.handle(req, res));
    // Clients keep connections alive; do not let idle sockets pin close() for the default 5 s.
    server.keepAliveTimeout = 1000;
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    if (!server) return Promise.resolve();
    return new Promise((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    if (this.served) this.served.set(path, (this.served.get(path) ?? 0) + 1);
    if (path === OPENID_LOGIN_PATH || path.startsWith(OAUTH_PATH_PREFIX)) return this.handleForm(req, res, path);
    let response: SimResponse;
    try {
      response = route(this.universe, this.currentTick(), this.apiKey, req.method ?? 'GET', req.url ?? '/');
    } catch {
      response = htmlError(500, 'Internal Server Error');
    }
    this.respond(res, response);
  }

  /** The sign-in endpoints take POSTed forms (login forms, check_authentication, token requests): the body is read first. */
  private handleForm(req: IncomingMessage, res: ServerResponse, path: string): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= OPENID_BODY_LIMIT_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > OPENID_BODY_LIMIT_BYTES) return this.respond(res, htmlError(413, 'The form is too large.'));
      const url = new URL(req.url ?? '/', 'http://simulator.local');
      const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
      const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const method = req.method ?? 'GET';
      let response: OpenIdResponse;
      try {
        response =
          path === OPENID_LOGIN_PATH
            ? this.openId.handle(method, url.searchParams, body, `${origin}${OPENID_LOGIN_PATH}`)
            : this.oauth.handle(
                method,
                path,
                url.searchParams,
                body,
                { authorization: req.headers.authorization, 'client-id': header(req, 'client-id') },
                origin,
              );
      } catch {
        response = htmlError(500, 'Internal Server Error');
      }
      this.respond(res, response);
    });
  }

  private respond(res: ServerResponse, response: OpenIdResponse): void {
    const write = (): void => {
      res.writeHead(response.status, {
        'Content-Type': response.contentType,
        'Content-Length': Buffer.byteLength(response.body),
        ...(response.location ? { Location: response.location } : {}),
      });
      res.end(response.body);
    };
    if (this.latencyMs === 0) return write();
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      write();
    }, this.latencyMs);
    this.pending.add(timer);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
