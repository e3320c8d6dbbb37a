import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { unauthorized } from '../../common/problem/problem.exception';
import { Principal } from '../../common/auth/principal';
import { SessionService } from '../session.service';

export const SESSION_STRATEGY = 'session';

/**
 * Web-app session tokens (`auth_…`) from the `Authorization: Bearer` header, parsed by passport-http-bearer.
 * It is asked after the API-key strategy, so any bearer token that is not an API key is checked (and refused) here.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(private readonly sessions: SessionService) {
    super();
  }

  async validate(token: string): Promise<Principal> {
    const session = await this.sessions.authenticate(token);
    if (!session) throw unauthorized('The bearer token is not a valid or current user session.');
    return { kind: 'session', accountId: session.accountId, sessionId: session.sessionId };
  }
}
