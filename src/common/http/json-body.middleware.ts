import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ProblemException } from '../problem/problem.exception';

/** body-parser errors a client can cause, by their `type`, as the detail shown to the client. */
const BODY_PARSER_DETAILS: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON.',
  'entity.too.large': 'The request body is larger than this service accepts.',
  'encoding.unsupported': 'The request body uses an unsupported content encoding.',
  'charset.unsupported': 'The request body uses an unsupported charset.',
  'request.aborted': 'The request body was not received completely.',
};

/**
 * JSON body parsing as Nest middleware (not app.use) so that malformed or oversized bodies reach the
 * problem-details filter like every other error. `$schema` is dropped from request objects: an earlier
 * revision let clients echo it, and it must not count as an unknown field.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: RequestHandler;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.parse = json({ limit: config.bodyLimitBytes, strict: false, type: ['application/json', 'application/*+json'] });
  }

  use(request: Request, response: Response, next: NextFunction): void {
    this.parse(request, response, (error?: unknown) => {
      if (error) return next(toProblem(error));
      const body: unknown = request.body;
      if (body && typeof body === 'object' && !Array.isArray(body) && '$schema' in body) {
        delete (body as Record<string, unknown>).$schema;
      }
      next();
    });
  }
}

function toProblem(error: unknown): unknown {
  const parserError = error as { type?: string; status?: number };
  const detail = parserError.type ? BODY_PARSER_DETAILS[parserError.type] : undefined;
  return detail && parserError.status ? new ProblemException(parserError.status, detail) : error;
}
