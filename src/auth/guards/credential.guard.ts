import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { tooManyRequests, unauthorized } from '../../common/problem/problem.exception';
import { JsonLogger } from '../../common/logging/json-logger';
import { ApiKeyService } from '../api-key.service';
import { AUTH_POLICY, AuthPolicy, NO_RATE_LIMIT } from '../auth.decorator';
import { Principal } from '../principal';
import { clientAddress } from '../rate-limit/client-address';
import { RateLimiter, RateSubject } from '../rate-limit/rate-limiter.service';
import { API_KEY_PATTERN } from '../secrets';
import { SessionService } from '../session.service';

type Identified = { principal: Principal } | { refusal: string };

/**
 * Credentials come from the Authorization header only. (passport-http-bearer, used before, also took
 * `access_token` from the query string and the body, where URLs and logs leak them; it has no switch for that.)
 */
function bearerToken(request: Request): string | null {
  const header = request.header('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : null;
}

function offersTokenOutsideHeader(request: Request): boolean {
  const body: unknown = request.body;
  return (
    (request.query && 'access_token' in request.query) ||
    Boolean(body && typeof body === 'object' && !Array.isArray(body) && 'access_token' in body)
  );
}

/**
 * The global guard: deny by default. A route passes only if it declares a policy (see `Auth`) and the
 * request's credential satisfies it. It also applies the rate limits, because only here is it known whom a
 * request counts against: its API key or session; its client address when it has no valid credential. A
 * credential that fails costs its address a slot of the failed-credential budget; an address whose budget
 * is spent gets 429 for any credential, before it is looked up. (The budget is checked before and charged
 * after a check: charging before would cap the parallel requests of a valid key at the failure budget. So a
 * burst of parallel guesses can pass it by the burst's size once; sequential guessing cannot.)
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly logger = new JsonLogger('CredentialGuard');

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
    private readonly sessions: SessionService,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const policy = this.reflector.getAllAndOverride<AuthPolicy | undefined>(AUTH_POLICY, targets);
    const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const response = context.switchToHttp().getResponse<Response>();
    const address = clientAddress(request);
    if (policy === 'public') {
      if (!this.reflector.getAllAndOverride<boolean>(NO_RATE_LIMIT, targets))
        await this.limit(response, { kind: 'anonymous', id: address });
      return true;
    }
    if (policy && offersTokenOutsideHeader(request)) {
      throw unauthorized('Credentials are accepted only in the Authorization header, never in the query string or body.');
    }
    switch (policy) {
      case 'refresh-token':
        return this.refreshToken(response, address);
      case 'any':
      case 'session':
      case 'optional':
        return this.bearer(policy, request, response, address);
      default:
        this.logger.error({ msg: 'route without an auth policy refused', path: request.path });
        throw unauthorized('This route accepts no credential.');
    }
  }

  private async bearer(
    policy: 'any' | 'session' | 'optional',
    request: Request & { user?: Principal },
    response: Response,
    address: string,
  ) {
    const token = bearerToken(request);
    if (!token) {
      await this.limit(response, { kind: 'anonymous', id: address });
      if (policy === 'optional') return true;
      throw unauthorized();
    }
    await this.checkFailureBudget(address);
    if (policy === 'session' && API_KEY_PATTERN.test(token)) {
      await this.apiKeys.check(token, false);
      await this.limiter.take({ kind: 'failed-credential', id: address });
      throw unauthorized('This operation needs a user session; API keys are not accepted.');
    }
    const identified = await this.identify(token);
    if ('refusal' in identified) {
      await this.limiter.take({ kind: 'failed-credential', id: address });
      // An optional operation serves a caller whose credential does not check out as anonymous.
      if (policy !== 'optional') throw unauthorized(identified.refusal);
      await this.limit(response, { kind: 'anonymous', id: address });
      return true;
    }
    const { principal } = identified;
    const subject: RateSubject =
      principal.kind === 'api-key' ? { kind: 'api-key', id: principal.keyId } : { kind: 'session', id: principal.sessionId };
    await this.limit(response, subject);
    request.user = principal;
    return true;
  }

  /** account.refreshSession: the credential is in the body and checked by the controller; its 401 is a failure. */
  private async refreshToken(response: Response, address: string): Promise<boolean> {
    await this.limit(response, { kind: 'anonymous', id: address });
    await this.checkFailureBudget(address);
    response.once('finish', () => {
      if (response.statusCode === 401) void this.limiter.take({ kind: 'failed-credential', id: address }).catch(() => undefined);
    });
    return true;
  }

  private async identify(token: string): Promise<Identified> {
    if (token.startsWith('sk_')) {
      const result = await this.apiKeys.check(token, true);
      if (result?.ok) return { principal: { kind: 'api-key', accountId: result.key.accountId, keyId: result.key.keyId } };
      return { refusal: result?.outcome === 'DISABLED' ? 'This API key has been revoked.' : 'The bearer token is not a valid API key.' };
    }
    const session = await this.sessions.authenticate(token);
    if (session) return { principal: { kind: 'session', accountId: session.accountId, sessionId: session.sessionId } };
    return { refusal: 'The bearer token is not a valid or current user session.' };
  }

  /** Counts the request against its subject; sets the RateLimit headers and refuses with 429 past the limit. */
  private async limit(response: Response, subject: RateSubject): Promise<void> {
    const decision = await this.limiter.take(subject);
    const headers = RateLimiter.headers(decision);
    if (!decision.allowed) throw tooManyRequests(this.tooManyDetail(subject), decision.resetSeconds, headers);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  }

  private async checkFailureBudget(address: string): Promise<void> {
    const subject: RateSubject = { kind: 'failed-credential', id: address };
    const decision = await this.limiter.peek(subject);
    if (!decision.allowed) throw tooManyRequests(this.tooManyDetail(subject), decision.resetSeconds, RateLimiter.headers(decision));
  }

  private tooManyDetail(subject: RateSubject): string {
    const details: Record<RateSubject['kind'], string> = {
      'api-key': 'This API key made too many requests; retry after the Retry-After delay.',
      session: 'This session made too many requests; retry after the Retry-After delay.',
      anonymous: 'Too many requests without a credential came from this address; retry after the Retry-After delay.',
      'failed-credential': 'Too many invalid credentials came from this address; retry after the Retry-After delay.',
    };
    return details[subject.kind];
  }
}
