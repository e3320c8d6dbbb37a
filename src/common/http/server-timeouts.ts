import type { Server } from 'node:http';
import { AppConfig } from '../../config/app-config';

/**
 * Node's HTTP server timeouts, set on purpose rather than left at their defaults (config: httpServerTimeouts in
 * app-config.ts, README "Limits"): `headersTimeout` bounds how long a client may take to send its headers,
 * `requestTimeout` the whole request (headers and body; the large-body gate's own deadline is shorter, so its 408
 * with a reason comes first), `keepAliveTimeout` how long an idle kept-alive socket stays open. Node checks the first
 * two every 30 s (its `connectionsCheckingInterval`), so a request over them is cut within 30 s of the limit.
 * Neither bounds an answer being sent: an event stream's response is not the request.
 */
export function applyServerTimeouts(server: Server, timeouts: AppConfig['httpServer']): void {
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
}
