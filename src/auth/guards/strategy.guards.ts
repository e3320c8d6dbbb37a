import { ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { Principal } from '../../common/auth/principal';
import { API_KEY_STRATEGY } from '../strategies/api-key.strategy';
import { SESSION_STRATEGY } from '../strategies/session.strategy';

/**
 * Where passport leaves a strategy's principal. Not `user`: CredentialGuard sets that itself, and only once the
 * route's policy and the rate limits have passed.
 */
const PASSPORT_PROPERTY = 'passportPrincipal';

/**
 * A passport guard for one strategy that reports rather than decides: `identify` gives the strategy's principal,
 * or null when the header holds no bearer token the strategy takes (none, not `Bearer`, malformed, or an `auth_`
 * token offered to the API-key strategy). A refusal thrown by the strategy (401) and a store error (→ 503) go on
 * unchanged; CredentialGuard decides what a refusal costs under the route's policy.
 */
function strategyGuard(strategy: string) {
  return class extends AuthGuard(strategy) {
    constructor() {
      super({ property: PASSPORT_PROPERTY });
    }

    override handleRequest<TUser = Principal | null>(error: unknown, principal: TUser): TUser {
      if (error) throw error;
      return (principal || null) as TUser;
    }

    async identify(context: ExecutionContext): Promise<Principal | null> {
      await this.canActivate(context);
      const request = context.switchToHttp().getRequest<Request & { [PASSPORT_PROPERTY]?: Principal | null }>();
      const principal = request[PASSPORT_PROPERTY] ?? null;
      delete request[PASSPORT_PROPERTY];
      return principal;
    }
  };
}

/** API keys and user sessions are told apart by separate strategies, each behind its own guard. */
export const ApiKeyAuthGuard = strategyGuard(API_KEY_STRATEGY);
export const SessionAuthGuard = strategyGuard(SESSION_STRATEGY);
