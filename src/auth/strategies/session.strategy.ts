import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { unauthorized } from '../../common/problem/problem.exception';
import { Principal } from '../principal';
import { SessionService } from '../session.service';

/** Bearer tokens that are web-app session tokens (`auth_…`). */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(private readonly sessions: SessionService) {
    super();
  }

  async validate(token: string): Promise<Principal> {
    const session = await this.sessions.authenticate(token);
    if (!session) throw unauthorized('The bearer token is not a valid or current user session.');
    return { kind: 'session', accountId: session.accountId, sessionId: session.sessionId };
  }
}
