import { Injectable, NestMiddleware } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { JsonLogger } from '../logging/json-logger';
import { requestContext } from '../logging/request-context';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Gives every request an id (the client's X-Request-Id when well-formed), echoes it in the response and logs
 * one line when the response is finished. Only the path is logged: query strings and headers may hold secrets.
 */
@Injectable()
export class RequestIdMiddleware implements NestMiddleware {
  private readonly logger = new JsonLogger('http');

  use(request: Request, response: Response, next: NextFunction): void {
    const offered = request.header('x-request-id');
    const requestId = offered && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
    response.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      const principal = (request as Request & { user?: { kind: string; keyId?: string; sessionId?: string } }).user;
      requestContext.run({ requestId }, () =>
        this.logger.log({
          msg: 'request',
          method: request.method,
          path: request.path,
          status: response.statusCode,
          durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          credential: principal ? { kind: principal.kind, id: principal.keyId ?? principal.sessionId } : undefined,
        }),
      );
    });
    requestContext.run({ requestId }, next);
  }
}
