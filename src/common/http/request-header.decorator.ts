import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * One request header, or undefined. Used instead of Nest's `@Headers(name)` for the optional headers of the wire
 * reference: the document generator lists every `@Headers` parameter as a *required* header, under its
 * lower-case name, beside the `@ApiHeader` that documents it; a custom decorator is not documented, so each
 * header appears once, as its `@ApiHeader` says.
 */
export const RequestHeader = createParamDecorator((name: string, context: ExecutionContext): string | undefined =>
  context.switchToHttp().getRequest<Request>().header(name),
);
