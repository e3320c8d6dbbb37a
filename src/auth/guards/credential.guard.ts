import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ProblemException, tooManyRequests, unauthorized } from '../../common/problem/problem.exception';
import { JsonLogger } from '../../common/logging/json-logger';
import { WIRE_STREAM, type StreamOperation } from '../../common/wire/wire-operation.decorator';
import { ApiKeyService } from '../api-key.service';
import { AUTH_POLICY, AuthPolicy, NO_RATE_LIMIT } from '../../common/auth/auth.decorator';
import { Principal } from '../../common/auth/principal';
import { clientAddress } from '../rate-limit/client-address';
import { RateLimiter, RateSubject } from '../rate-limit/rate-limiter.service';
import { StreamTicketService } from '../stream-tickets/stream-ticket.service';
import { CredentialStreams } from '../revocations/credential-streams';
import { ApiKeyAuthGuard, SessionAuthGuard } from './strategy.guards';
import { StreamSlots } from '../stream-limits/stream-slots';

function subjectOf(principal: Principal): RateSubject {
  return principal.kind === 'api-key' ? { kind: 'api-key', id: principal.keyId } : { kind: 'session', id: principal.sessionId };
}

/** A refusal of the credential itself (thrown by a strategy), as opposed to a store error, which stays a 503. */
function isRefusal(error: unknown): error is ProblemException {
  return error instanceof ProblemException && error.getStatus() === 401;
}

const sessionOnly = () => unauthorized('This operation needs a user session; API keys are not accepted.');

/**
 * passport-http-bearer would also take `access_token` from the query string or the body, where URLs and logs
 * leak it; it has no switch for that. So such a request is refused before passport runs, even when the token is
 * valid, and passport only ever sees the Authorization header.
 */
function offersTokenOutsideHeader(request: Request): boolean {
  const body: unknown = request.body;
  return (
    (request.query && 'access_token' in request.query) ||
    Boolean(body && typeof body === 'object' && !Array.isArray(body) && 'access_token' in body)
  );
}

/**
 * The global guard: deny by default. A route passes only if it declares a policy (see `Auth`) and the
 * request's credential satisfies it. The bearer token is parsed and verified by passport-http-bearer, through
 * separate strategies (and guards) for API keys and user sessions. This guard also applies the rate limits,
 * because only here is it known whom a request counts against: its API key or session; its client address
 * when it has no valid credential. A
 * credential that fails costs its address a slot of the failed-credential budget; an address whose budget
 * is spent gets 429 for any credential. (The budget is checked in the same script that counts a valid
 * credential's request, and charged after a failed check: charging before would cap the parallel requests of a
 * valid key at the failure budget. So a burst of parallel guesses can pass it by the burst's size once;
 * sequential guessing cannot.)
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly logger = new JsonLogger('CredentialGuard');

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
    private readonly limiter: RateLimiter,
    private readonly tickets: StreamTicketService,
    private readonly apiKeyGuard: ApiKeyAuthGuard,
    private readonly sessionGuard: SessionAuthGuard,
    private readonly streams: CredentialStreams,
    private readonly slots: StreamSlots,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const allowed = await this.admit(context);
    const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const response = context.switchToHttp().getResponse<Response>();
    if (allowed && this.reflector.get<StreamOperation | undefined>(WIRE_STREAM, context.getHandler())) {
      // Open streams are counted per account or address (StreamSlots) until their responses close.
      this.slots.take(request.user ?? null, clientAddress(request), response);
      // A stream outlives the check of its credential: it is ended when that credential is revoked (CredentialStreams).
      if (request.user && !this.streams.watch(request.user, response)) {
        throw unauthorized('The credential of this stream was revoked.');
      }
    }
    return allowed;
  }

  private async admit(context: ExecutionContext): Promise<boolean> {
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
    const stream = this.reflector.get<StreamOperation | undefined>(WIRE_STREAM, context.getHandler());
    if (stream && (policy === 'any' || policy === 'optional') && request.query && 'ticket' in request.query) {
      return this.streamTicket(policy, stream, request, response, address);
    }
    switch (policy) {
      case 'refresh-token':
      case 'sign-in':
        return this.bodyCredential(response, address);
      case 'any':
      case 'session':
      case 'optional':
        return this.bearer(policy, context, address);
      default:
        this.logger.error({ msg: 'route without an auth policy refused', path: request.path });
        throw unauthorized('This route accepts no credential.');
    }
  }

  /**
   * One rate-limit round trip for a request with a valid credential: the failed-credential budget of its address
   * is checked in the same script that counts the request against its key or session (`RateLimiter.take` with a
   * guard), after the credential was looked up. A spent budget still refuses every credential from the address,
   * valid ones included, with 429; only the lookup now happens first (an invalid key offered from a spent address
   * is counted in its usage as INVALID, where before it was refused unseen). A refused credential charges the
   * budget, and the charge itself says whether the budget was already spent (then 429 instead of 401).
   */
  private async bearer(policy: 'any' | 'session' | 'optional', context: ExecutionContext, address: string): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const response = context.switchToHttp().getResponse<Response>();
    const failures: RateSubject = { kind: 'failed-credential', id: address };
    let principal: Principal | null;
    let refused = false;
    try {
      principal = await this.identify(policy, context);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      const charge = await this.limiter.take(failures);
      if (!charge.allowed) throw tooManyRequests(this.tooManyDetail(failures), charge.resetSeconds, RateLimiter.headers(charge));
      // An optional operation serves a caller whose credential does not check out as anonymous.
      if (policy !== 'optional') throw error;
      principal = null;
      refused = true;
    }
    // Any Authorization header offers a credential: a spent failure budget refuses it (unless it was just charged).
    const guard = request.headers.authorization && !refused ? failures : undefined;
    if (!principal) {
      await this.limit(response, { kind: 'anonymous', id: address }, guard);
      if (policy === 'optional') return true;
      throw unauthorized();
    }
    await this.limit(response, subjectOf(principal), guard);
    request.user = principal;
    return true;
  }

  /**
   * A stream opened with `?ticket=` (see StreamTicketService): the ticket stands for the key or session that
   * minted it, and once looked up it is spent whatever the outcome. A failed ticket costs a slot of the failed-credential budget
   * like a failed bearer token, and an optional stream then serves the caller as anonymous, as it would a bad
   * token. Offering both a ticket and a header is refused: which one the stream runs as would be a guess.
   */
  private async streamTicket(
    policy: 'any' | 'optional',
    stream: StreamOperation,
    request: Request & { user?: Principal },
    response: Response,
    address: string,
  ): Promise<boolean> {
    if (request.headers.authorization) throw unauthorized('Send either the Authorization header or a stream ticket, not both.');
    await this.checkFailureBudget(address);
    const ticket = request.query.ticket;
    const principal = typeof ticket === 'string' ? await this.tickets.redeem(ticket, stream) : null;
    if (!principal) {
      await this.limiter.take({ kind: 'failed-credential', id: address });
      if (policy !== 'optional') throw unauthorized(`The stream ticket is unknown, expired, already used or not for ${stream}.`);
      await this.limit(response, { kind: 'anonymous', id: address });
      return true;
    }
    await this.limit(response, subjectOf(principal));
    request.user = principal;
    return true;
  }

  /**
   * account.refreshSession and account.login: the credential (a refresh token, a signed assertion) is in the body
   * and checked by the controller; its 401 is a failed credential like a bad bearer token.
   */
  private async bodyCredential(response: Response, address: string): Promise<boolean> {
    await this.limit(response, { kind: 'anonymous', id: address });
    await this.checkFailureBudget(address);
    response.once('finish', () => {
      if (response.statusCode === 401) void this.limiter.take({ kind: 'failed-credential', id: address }).catch(() => undefined);
    });
    return true;
  }

  /**
   * The API-key strategy goes first: it takes `sk_…` tokens only and leaves any other bearer token to the session
   * strategy. Null: no bearer token in the header. On a session-only operation any API key is refused (and a
   * valid one counted as INSUFFICIENT_PERMISSIONS; a wrong or revoked one was counted by its strategy).
   */
  private async identify(policy: 'any' | 'session' | 'optional', context: ExecutionContext): Promise<Principal | null> {
    const key = await this.apiKeyGuard.identify(context).catch((error: unknown) => {
      throw policy === 'session' && isRefusal(error) ? sessionOnly() : error;
    });
    if (key?.kind === 'api-key' && policy === 'session') {
      await this.apiKeys.recordInsufficient(key.keyId);
      throw sessionOnly();
    }
    return key ?? this.sessionGuard.identify(context);
  }

  /**
   * Counts the request against its subject (unless a `guard` window is full: see RateLimiter.take); sets the
   * RateLimit headers and refuses with 429 past the limit.
   */
  private async limit(response: Response, subject: RateSubject, guard?: RateSubject): Promise<void> {
    const decision = await this.limiter.take(subject, guard);
    const headers = RateLimiter.headers(decision);
    if (!decision.allowed) throw tooManyRequests(this.tooManyDetail(decision.decidedBy), decision.resetSeconds, headers);
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
