import { Injectable, NestMiddleware } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ServiceMetrics } from '../metrics/service-metrics';
import type { Principal } from '../auth/principal';
import { rootLogger } from './pino';
import { requestContext } from './request-context';

/** A client's own request id is echoed when it looks like one; anything else gets a UUID. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** `user` is set by CredentialGuard once the credential has passed. */
type LoggedRequest = Request & { user?: Principal };

/**
 * # Request ids and the request log
 *
 * First on every route: names the request (`X-Request-Id`, the client's when well-formed), serves the rest of it
 * inside `requestContext` (so every line logged meanwhile, and a problem answer, carry the id), and logs one line
 * when it is finished or its connection closes: method, path (never the query or headers: they may hold secrets),
 * status, time, credential id; and counts it in the process's metrics (src/common/metrics).
 *
 * Written here rather than taken from pino-http (nestjs-pino's middleware): pino-http binds two child loggers to
 * every request, even when nothing logs through them. Each is a new prototype in V8 (new hidden classes, allocated
 * in the old generation), which cost ~4 % of the API's CPU and, worse, kept the request's young objects alive
 * through scavenges: a quarter of what `/health` allocated was promoted, and the old generation filled with it
 * (docs/performance-history.md, "each request's log without pino-http's loggers"). Here the id is a string in the
 * context, and the line is written by the root logger.
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  constructor(private readonly metrics: ServiceMetrics) {}

  use(req: LoggedRequest, res: Response, next: () => void): void {
    const offered = req.headers['x-request-id'];
    const requestId = typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    const finished = (): void => {
      res.off('finish', finished);
      res.off('close', finished);
      const elapsedMs = performance.now() - started;
      // The request's count and latency (ServiceMetrics: a counter and a histogram, no allocation per request).
      const url = req.originalUrl ?? req.url ?? '';
      const query = url.indexOf('?');
      this.metrics.observeRequest(query < 0 ? url : url.slice(0, query), res.statusCode, elapsedMs / 1000);
      if (!rootLogger.isLevelEnabled('info')) return;
      const principal = req.user;
      rootLogger.info({
        requestId,
        method: req.method,
        path: (req.originalUrl ?? req.url ?? '').split('?')[0],
        status: res.statusCode,
        durationMs: Math.round(elapsedMs),
        credential: principal
          ? { kind: principal.kind, id: principal.kind === 'api-key' ? principal.keyId : principal.sessionId }
          : undefined,
        msg: 'request',
      });
    };
    res.on('finish', finished);
    res.on('close', finished);
    requestContext.run(requestId, next);
  }
}
