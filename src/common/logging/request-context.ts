import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The id of the request being served (pino-http's), carried across its awaits (RequestLogMiddleware, request-log.ts,
 * runs the rest of the request inside `requestContext`). Every log line written meanwhile carries it (pino.ts's mixin),
 * also lines of loggers that never saw the request (JsonLogger), and a problem answer quotes it.
 */
export const requestContext = new AsyncLocalStorage<string>();

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore();
}
