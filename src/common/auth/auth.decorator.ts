import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import { Principal } from './principal';

/**
 * Who may call a route. Every route must declare one (a global guard denies routes that do not):
 * - `any`: an API key or a user session;
 * - `session`: a user session only; API keys get 401;
 * - `optional`: public, but a valid credential identifies the caller (richer answers);
 * - `refresh-token`: the credential travels in the body (`account.refreshSession`);
 * - `sign-in`: no credential yet: the body is the platform's signed assertion (`account.login`);
 * - `public`: no credential at all (health, docs, schemas).
 */
export type AuthPolicy = 'any' | 'session' | 'optional' | 'refresh-token' | 'sign-in' | 'public';

export const AUTH_POLICY = 'auth:policy';

export const BEARER_SCHEME = 'bearer';

export function Auth(policy: AuthPolicy) {
  const decorators: (ClassDecorator & MethodDecorator)[] = [SetMetadata(AUTH_POLICY, policy)];
  if (policy === 'any' || policy === 'session') decorators.push(ApiBearerAuth(BEARER_SCHEME));
  // Optional credential: both "none" and "bearer" satisfy the operation.
  if (policy === 'optional') decorators.push(ApiSecurity({}), ApiBearerAuth(BEARER_SCHEME));
  return applyDecorators(...decorators);
}

export const Public = () => Auth('public');

export const NO_RATE_LIMIT = 'auth:no-rate-limit';

/** Exempts a public route from the per-address limit: load balancers poll /health far more than any caller. */
export const NoRateLimit = () => SetMetadata(NO_RATE_LIMIT, true);

/** The authenticated caller (undefined on public routes without a credential). */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined =>
    context.switchToHttp().getRequest<Request & { user?: Principal }>().user,
);
