import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The id of the request being served, carried across its awaits (RequestLogMiddleware runs the rest of the request
 * inside `requestContext`). Every log line written meanwhile carries it (pino.ts's mixin), and a problem answer
 * quotes it. Only the id is kept: a logger bound to it per request (what pino-http builds) cost more than its lines.
 */
export const requestContext = new AsyncLocalStorage<string>();

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore();
}
