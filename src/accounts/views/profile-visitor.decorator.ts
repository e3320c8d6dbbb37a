import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AccountViewsService } from './account-views.service';

/**
 * Who is viewing a profile (AccountViewsService.visitor): the client's `X-Visitor-Id`, else its address (the first
 * `X-Forwarded-For` entry, else the connection's) with its `User-Agent`. One parameter read from the request: as four
 * (the address and three headers) three of them went through the global pipe on every `account.getInfo`. The headers
 * are documented on the operation (`@ApiHeader`).
 */
export const ProfileVisitor = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<Request>();
  const address = request.header('x-forwarded-for')?.split(',')[0]?.trim() || (request.ip ?? '');
  return AccountViewsService.visitor(request.header('x-visitor-id'), address, request.header('user-agent'));
});
