import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { htmlError, type SimResponse } from './handlers/http-response';
import { route } from './handlers/router';
import { Universe } from './universe/universe';

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
    let response: SimResponse;
    if (this.served) {
      const path = (req.url ?? '/').split('?')[0];
      this.served.set(path, (this.served.get(path) ?? 0) + 1);
    }
    try {
      response = route(this.universe, this.currentTick(), this.apiKey, req.method ?? 'GET', req.url ?? '/');
    } catch {
      response = htmlError(500, 'Internal Server Error');
    }
    const write = (): void => {
      res.writeHead(response.status, { 'Content-Type': response.contentType, 'Content-Length': Buffer.byteLength(response.body) });
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
