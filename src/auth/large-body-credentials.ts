import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { LargeBodyCredentials } from '../common/large-bodies/large-body-gate';
import { ApiKeyService } from './api-key.service';
import { clientAddress } from './rate-limit/client-address';
import { RateLimiter } from './rate-limit/rate-limiter.service';
import { SessionService } from './session.service';

/**
 * The credential check LargeBodyGate asks before it reads a large body (see there): the Authorization header's
 * bearer token must be a live API key or user session. Only whether it is one is decided here; the global guard
 * still checks it against the route's policy, rate-limits and counts it, once the body is in. A refused token costs
 * its address a slot of the failed-credential budget, as the guard's refusal would: the gate is no way around it.
 */
@Injectable()
export class BearerLargeBodyCredentials implements LargeBodyCredentials {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly sessions: SessionService,
    private readonly limiter: RateLimiter,
  ) {}

  address(request: Request): string {
    return clientAddress(request);
  }

  async admits(request: Request): Promise<boolean> {
    const token = /^Bearer\s+(\S+)$/i.exec(request.header('authorization') ?? '')?.[1];
    if (!token) return false;
    const valid = token.startsWith('sk_')
      ? Boolean((await this.apiKeys.check(token))?.ok)
      : Boolean(await this.sessions.authenticate(token));
    if (!valid) await this.limiter.take({ kind: 'failed-credential', id: clientAddress(request) });
    return valid;
  }
}
