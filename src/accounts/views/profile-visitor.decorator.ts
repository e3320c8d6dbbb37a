import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { Principal } from '../../common/auth/principal';
import { AccountViewsService } from './account-views.service';

/**
 * Who is viewing a profile (AccountViewsService.visitor): the account of the request's credential (any of its keys or
 * sessions) with the client's address as Express decides it, which reads `X-Forwarded-For` only through the
 * `TRUST_PROXY_HOPS` proxies in front of the API. Nothing the client chooses freely tells viewers apart: not
 * `X-Visitor-Id`, not `User-Agent`, not an `X-Forwarded-For` no trusted proxy wrote. So one key from one address is
 * one viewer, however it labels its requests. The headers stay documented on the operation (`@ApiHeader`).
 */
export const ProfileVisitor = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
  return AccountViewsService.visitor(request.user?.accountId ?? null, request.ip ?? '');
});
