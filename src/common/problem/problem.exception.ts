import { HttpException, HttpStatus } from '@nestjs/common';

/** One problem found in a request: where (`body.id.steamId64`), what, and the offending value. */
export interface ErrorDetail {
  location?: string;
  message: string;
  value?: unknown;
}

export interface ProblemOptions {
  errors?: ErrorDetail[];
  type?: string;
  title?: string;
  headers?: Record<string, string>;
}

/**
 * The one exception areas throw for an expected failure. The global filter renders it as
 * application/problem+json; `detail` is shown to the client, so it must never hold internals or secrets.
 */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    readonly detail: string,
    readonly problem: ProblemOptions = {},
  ) {
    super(detail, status);
  }
}

export const unauthorized = (detail = 'A valid bearer credential is required.') =>
  new ProblemException(HttpStatus.UNAUTHORIZED, detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const forbidden = (detail: string) => new ProblemException(HttpStatus.FORBIDDEN, detail);
export const notFound = (detail: string) => new ProblemException(HttpStatus.NOT_FOUND, detail);
export const unprocessable = (detail: string, errors: ErrorDetail[]) =>
  new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, detail, { errors });
export const tooManyRequests = (detail: string, retryAfterSeconds: number, headers: Record<string, string> = {}) =>
  new ProblemException(HttpStatus.TOO_MANY_REQUESTS, detail, {
    headers: { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
/** Reference clients retry 503 with backoff; Retry-After tells them when a retry is worth it. */
export const serviceUnavailable = (detail: string, retryAfterSeconds?: number) =>
  new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, detail, {
    headers: retryAfterSeconds ? { 'Retry-After': String(Math.ceil(retryAfterSeconds)) } : undefined,
  });
export const methodNotAllowed = (detail: string, allow: string[]) =>
  new ProblemException(HttpStatus.METHOD_NOT_ALLOWED, detail, { headers: { Allow: allow.join(', ') } });
export const unsupportedMediaType = (detail: string, headers?: Record<string, string>) =>
  new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, detail, { headers });
