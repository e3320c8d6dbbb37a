import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { unauthorized } from '../../common/problem/problem.exception';
import { JsonLogger } from '../../common/logging/json-logger';
import { ApiKeyService } from '../api-key.service';
import { AUTH_POLICY, AuthPolicy } from '../auth.decorator';
import { API_KEY_PATTERN } from '../secrets';

/** Passport guards that turn a failed strategy into our problem-details 401 instead of Nest's default body. */
function strictGuard(strategy: 'api-key' | 'session') {
  return class extends AuthGuard(strategy) {
    override handleRequest<T>(error: unknown, principal: T): T {
      if (error) throw error;
      if (!principal) throw unauthorized();
      return principal;
    }
  };
}

const ApiKeyGuard = strictGuard('api-key');
const SessionGuard = strictGuard('session');

function bearerToken(request: Request): string | null {
  const header = request.header('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : null;
}

/**
 * The global guard: deny by default. A route passes only if it declares a policy (see `Auth`) and the
 * request's credential satisfies it. API keys and sessions are checked by separate strategies.
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly logger = new JsonLogger('CredentialGuard');
  private readonly apiKeyGuard = new ApiKeyGuard();
  private readonly sessionGuard = new SessionGuard();

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<AuthPolicy | undefined>(AUTH_POLICY, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<Request>();
    const token = bearerToken(request);
    switch (policy) {
      case 'public':
      case 'refresh-token':
        return true;
      case 'any':
        return this.authenticate(context, token);
      case 'session':
        if (token && API_KEY_PATTERN.test(token)) {
          await this.apiKeys.check(token, false);
          throw unauthorized('This operation needs a user session; API keys are not accepted.');
        }
        return this.sessionGuard.canActivate(context) as Promise<boolean>;
      case 'optional':
        if (!token) return true;
        // A credential that does not check out is ignored: the operation is public.
        return this.authenticate(context, token).catch(() => true);
      default:
        this.logger.error({ msg: 'route without an auth policy refused', path: request.path });
        throw unauthorized('This route accepts no credential.');
    }
  }

  private authenticate(context: ExecutionContext, token: string | null): Promise<boolean> {
    const guard = token && token.startsWith('sk_') ? this.apiKeyGuard : this.sessionGuard;
    return guard.canActivate(context) as Promise<boolean>;
  }
}
