import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { StrategyCreatedStatic } from 'passport';
import type { Strategy } from 'passport-http-bearer';
import { Principal } from '../../common/auth/principal';
import { ApiKeyStrategy } from '../strategies/api-key.strategy';
import { SessionStrategy } from '../strategies/session.strategy';

type BearerStrategy = Strategy<never>;

/**
 * Asks one bearer strategy about a request through passport's strategy interface, as `passport.authenticate` does:
 * an object whose prototype is the strategy gets the actions the strategy reports with (success, fail, error), and
 * its `authenticate` runs. Resolves to the strategy's principal, or null when it fails the request (no bearer token
 * in the header, a malformed header, or a token it does not take); a refusal its `validate` throws (401) and a store
 * error (→ 503) reject unchanged.
 *
 * Not `AuthGuard` from @nestjs/passport: that builds passport's whole middleware for every request (a closure per
 * strategy action, request login helpers, option objects) to reach the same call, which cost every API-key read
 * ~8 kB more promoted to the old generation (docs/performance.md); and it finds the strategy by name in passport's
 * process-wide registry, so in a process that builds several applications (the e2e suites) every guard used the
 * last application's services. Here each guard holds its own application's strategy.
 */
function attempt(strategy: BearerStrategy, request: Request): Promise<Principal | null> {
  return new Promise((resolve, reject) => {
    const actions: StrategyCreatedStatic = {
      success: (principal) => resolve(principal as Principal),
      fail: () => resolve(null),
      pass: () => resolve(null),
      error: (error: unknown) => reject(error),
      redirect: () => reject(new Error('a bearer strategy never redirects')),
    };
    const run = Object.assign(Object.create(strategy) as BearerStrategy, actions);
    run.authenticate(request);
  });
}

/** A guard for one strategy that reports rather than decides: CredentialGuard decides what its answer costs. */
abstract class StrategyGuard implements CanActivate {
  protected constructor(private readonly strategy: BearerStrategy) {}

  identify(context: ExecutionContext): Promise<Principal | null> {
    return attempt(this.strategy, context.switchToHttp().getRequest<Request>());
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    return (await this.identify(context)) !== null;
  }
}

/** API keys and user sessions are told apart by separate strategies, each behind its own guard. */
@Injectable()
export class ApiKeyAuthGuard extends StrategyGuard {
  constructor(strategy: ApiKeyStrategy) {
    super(strategy as unknown as BearerStrategy);
  }
}

@Injectable()
export class SessionAuthGuard extends StrategyGuard {
  constructor(strategy: SessionStrategy) {
    super(strategy as unknown as BearerStrategy);
  }
}
