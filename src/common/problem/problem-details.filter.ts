import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { Store, storeOutage } from '../health/store-outage';
import { RouteMethods } from '../http/route-methods';
import { JsonLogger } from '../logging/json-logger';
import { currentRequestId } from '../logging/request-context';
import { safeErrorFields } from '../logging/safe-error';
import { clipProblems } from './clip-value';
import { ErrorDetail, methodNotAllowed, ProblemException, serviceUnavailable } from './problem.exception';

/** During an outage every request fails the same way: one warning per store this often is enough. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;
/** A store that comes back is usually back within seconds (a restart, a failover). */
const OUTAGE_RETRY_AFTER_SECONDS = 5;

interface ProblemBody {
  $schema: string;
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors: ErrorDetail[] | null;
}

/**
 * The single error path of the HTTP API: every exception becomes application/problem+json. An unreachable
 * PostgreSQL or Redis is a 503 (retryable, with Retry-After); other unexpected errors are logged with the
 * request id and answered with a 500 that reveals nothing of them.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new JsonLogger('ProblemDetailsFilter');
  private readonly routes: RouteMethods;
  private readonly lastOutageLog = new Map<Store, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    adapterHost: HttpAdapterHost,
  ) {
    this.routes = new RouteMethods(adapterHost);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const { status, detail, errors, headers, type, title } = this.describe(exception, request);
    if (response.headersSent) {
      // A stream that already started cannot turn into a problem document; end it.
      response.end();
      return;
    }
    const body: ProblemBody = {
      $schema: `${this.config.publicBaseUrl}/schemas/ErrorModel.json`,
      type: type ?? 'about:blank',
      title: title ?? STATUS_CODES[status] ?? 'Error',
      status,
      detail,
      instance: `urn:request:${currentRequestId() ?? 'unknown'}`,
      // Values are echoed shortened: a hostile request must not get its 200 kB back, or cost that to render.
      errors: errors ? clipProblems(errors) : null,
    };
    for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
    response.status(status).type('application/problem+json').send(JSON.stringify(body));
  }

  private describe(exception: unknown, request: Request) {
    if (exception instanceof HttpException && exception.getStatus() === 404 && !(exception instanceof ProblemException)) {
      // Nest's "no route" 404: when the path exists under other methods, the method is what is wrong.
      const allowed = this.routes.allowed(request.path);
      if (allowed.length && !allowed.includes(request.method.toUpperCase())) {
        exception = methodNotAllowed(`${request.path} does not accept ${request.method}; use ${allowed.join(' or ')}.`, allowed);
      }
    }
    const store = storeOutage(exception);
    if (store) {
      this.logOutage(store, exception, request);
      exception = serviceUnavailable('A backing service is temporarily unavailable; retry shortly.', OUTAGE_RETRY_AFTER_SECONDS);
    }
    if (exception instanceof ProblemException) {
      return { status: exception.getStatus(), detail: exception.detail, ...exception.problem };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const detail = status === 404 ? `No operation ${request.method} ${request.path} exists.` : this.messageOf(exception.getResponse());
      return { status, detail, errors: undefined, headers: undefined, type: undefined, title: undefined };
    }
    this.logger.error({
      msg: 'unhandled error',
      method: request.method,
      path: request.path,
      ...safeErrorFields(exception),
    });
    return {
      status: 500,
      detail: `An unexpected error occurred. Quote request id ${currentRequestId() ?? 'unknown'} when reporting it.`,
      errors: undefined,
    };
  }

  private logOutage(store: Store, exception: unknown, request: Request): void {
    const now = Date.now();
    if (now - (this.lastOutageLog.get(store) ?? 0) < OUTAGE_LOG_INTERVAL_MS) return;
    this.lastOutageLog.set(store, now);
    const { error, code } = safeErrorFields(exception);
    this.logger.warn({ msg: 'backing store unavailable; answering 503', store, method: request.method, path: request.path, error, code });
  }

  private messageOf(response: string | object): string {
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    return typeof message === 'string' ? message : 'The request failed.';
  }
}
