import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Where a reconnecting client says what it saw last: the `Last-Event-ID` header (an `EventSource` sends it by
 * itself), else the `lastEventId` query parameter (polyfills that cannot set headers). The header wins: it is
 * what the browser keeps up to date across reconnections. Left unvalidated on purpose: a malformed id is not a
 * 422 but a `resync-required` event (the stream still starts).
 */
export const LastEventId = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const request = context.switchToHttp().getRequest<Request>();
  const header = request.header('last-event-id');
  if (header !== undefined && header !== '') return header;
  const query = request.query.lastEventId;
  return typeof query === 'string' && query !== '' ? query : undefined;
});
