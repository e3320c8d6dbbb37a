import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { childLocation, MAX_REPORTED_PROBLEMS } from '../http/request-shape';
import { unprocessable } from '../problem/problem.exception';

/**
 * For operations without a request body: accept no body or `{}`, and name any field sent as unknown. A guard, run after
 * the credential guard as the interceptor it once was ran: any interceptor puts every request through Nest's
 * interceptor chain (see schema-link.ts).
 */
@Injectable()
export class EmptyBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    if (body !== undefined && body !== null) {
      if (typeof body !== 'object' || Array.isArray(body)) {
        throw unprocessable('This operation takes no request body.', [{ location: 'body', message: 'expected no body', value: body }]);
      }
      // The first few keys are enough to name; an 80,000-key body is not listed (or walked) in full.
      const fields: string[] = [];
      for (const field in body) if (fields.push(field) >= MAX_REPORTED_PROBLEMS) break;
      if (fields.length > 0) {
        throw unprocessable(
          'This operation takes no request body.',
          fields.map((field) => ({
            location: childLocation('body', field),
            message: `unknown field "${field}"`,
            value: (body as Record<string, unknown>)[field],
          })),
        );
      }
    }
    return true;
  }
}
