import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JsonLogger } from '../logging/json-logger';
import { currentRequestId } from '../logging/request-context';
import { ErrorDetail, ProblemException } from './problem.exception';

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
 * The single error path of the HTTP API: every exception becomes application/problem+json. Unexpected
 * errors are logged with the request id and answered with a 500 that reveals nothing of them.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new JsonLogger('ProblemDetailsFilter');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

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
      errors: errors ?? null,
    };
    for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
    response.status(status).type('application/problem+json').send(JSON.stringify(body));
  }

  private describe(exception: unknown, request: Request) {
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
      error: exception instanceof Error ? exception.message : String(exception),
      stack: exception instanceof Error ? exception.stack : undefined,
    });
    return {
      status: 500,
      detail: `An unexpected error occurred. Quote request id ${currentRequestId() ?? 'unknown'} when reporting it.`,
      errors: undefined,
    };
  }

  private messageOf(response: string | object): string {
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    return typeof message === 'string' ? message : 'The request failed.';
  }
}
