import { Injectable } from '@nestjs/common';
import { ClientInfo, SessionService } from '../auth/session.service';
import { unauthorized } from '../common/problem/problem.exception';
import { V1AccountRefreshSessionBody } from './dto/refresh-session.dto';

/** The signed-in user's sessions, as operations: the credential itself (tokens, hashes) is auth/'s SessionService. */
@Injectable()
export class SessionsService {
  constructor(private readonly sessions: SessionService) {}

  async refreshSession(refreshToken: string, client: ClientInfo): Promise<V1AccountRefreshSessionBody> {
    const issued = await this.sessions.refresh(refreshToken, client);
    if (!issued) throw unauthorized('The refresh token is not valid or has expired.');
    return {
      sessionToken: issued.sessionToken,
      sessionExpiresAt: issued.session.expiresAt.toISOString(),
      refreshToken: issued.refreshToken,
      refreshExpiresAt: issued.session.refreshExpiresAt.toISOString(),
    };
  }
}
