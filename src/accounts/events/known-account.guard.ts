import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Principal } from '../../common/auth/principal';
import { AccountLookupService } from '../../account-records/account-lookup.service';

/**
 * Refuses a stream of an account neither this service nor the platform knows with a 404 problem; an account not
 * refreshed yet is accepted, so a client can subscribe before queueing its first update. It is a guard, not a
 * pipe, because guards finish before Nest commits the event-stream headers; a slower pipe error would arrive
 * inside an already started stream. A malformed id is left to the validation pipe (422). A platform look-up is
 * reserved against the caller's share of the call budget: past it 429 (or 503), with Retry-After.
 */
@Injectable()
export class KnownAccountGuard implements CanActivate {
  constructor(private readonly lookup: AccountLookupService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const raw = request.query.accountId;
    // Runs after the credential guard: the look-up of an untracked account is paid by the caller's account.
    if (typeof raw === 'string' && /^\d{1,10}$/.test(raw) && Number(raw) <= 2147483647) {
      await this.lookup.assertKnown(Number(raw), request.user?.accountId ?? null);
    }
    return true;
  }
}
