import { Injectable, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { HttpLogger, Options, pinoHttp } from 'pino-http';
import { ServiceMetrics } from '../metrics/service-metrics';
import type { Principal } from '../auth/principal';
import { rootLogger } from './pino';
import { requestContext } from './request-context';

/** A client's own request id is echoed when it looks like one; anything else gets a UUID. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** When RequestLogMiddleware took the request (performance.now(): pino-http's own time is whole milliseconds). */
const STARTED = Symbol('requestStarted');

/** `id` is pino-http's (genReqId); `user` is set by CredentialGuard once the credential has passed. */
type LoggedRequest = IncomingMessage & { originalUrl?: string; user?: Principal; [STARTED]?: number };

/**
 * # Request ids and the request log
 *
 * RequestLogMiddleware runs pino-http first on every request: it names the request (`X-Request-Id`, the client's when
 * well-formed) and logs one line when it is finished or its connection closes: method, path (never the query or
 * headers: they may hold secrets), status, time, credential id. The line's fields are built here
 * (`customSuccessObject`), which is also where the request is counted in the process's metrics (src/common/metrics):
 * pino-http calls it once per finished request, whatever the level. pino-http binds the request to a child logger;
 * its `req` serializer writes nothing, so the line carries only these fields (the request id once: the line names
 * it, so pino.ts's mixin adds none).
 *
 * pino-http is mounted here rather than through nestjs-pino's LoggerModule: that module's middleware also serves the
 * rest of every request inside an AsyncLocalStorage of its own, a second one beside `requestContext`, and each live
 * storage costs a store copy on every promise the request makes (docs/architecture.md, "The request path"). Nest's
 * own lines still go through nestjs-pino's logger (pino.ts).
 *
 * Replaced a hand-written middleware that measured no steady 5 % better (docs/architecture.md, "Hand-written, and why").
 */
export function requestLogOptions(metrics: ServiceMetrics): Options<LoggedRequest, ServerResponse> {
  const line = (req: LoggedRequest, res: ServerResponse) => {
    const elapsedMs = req[STARTED] === undefined ? 0 : performance.now() - req[STARTED];
    const url = req.originalUrl ?? req.url ?? '';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    metrics.observeRequest(path, res.statusCode, elapsedMs / 1000);
    const principal = req.user;
    return {
      requestId: req.id,
      method: req.method,
      path,
      status: res.statusCode,
      durationMs: Math.round(elapsedMs),
      credential: principal
        ? { kind: principal.kind, id: principal.kind === 'api-key' ? principal.keyId : principal.sessionId }
        : undefined,
    };
  };
  return {
    logger: rootLogger,
    genReqId: (req, res) => {
      const offered = req.headers['x-request-id'];
      const id = typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // The request bound to the child logger is written by no serializer (its fields are the line's, above).
    wrapSerializers: false,
    serializers: { req: () => undefined },
    customSuccessObject: (req, res) => line(req, res),
    customErrorObject: (req, res) => line(req, res),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
  };
}

/**
 * The first middleware of every request: pino-http names and logs it (above), then the rest of the request is served
 * inside `requestContext` under that id, so every line logged meanwhile (JsonLogger's too) and a problem answer carry
 * it; and it notes when the request began.
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  private readonly httpLogger: HttpLogger<LoggedRequest, ServerResponse>;

  constructor(metrics: ServiceMetrics) {
    this.httpLogger = pinoHttp(requestLogOptions(metrics));
  }

  use(req: LoggedRequest, res: ServerResponse, next: () => void): void {
    req[STARTED] = performance.now();
    this.httpLogger(req, res);
    requestContext.run(String(req.id), next);
  }
}
