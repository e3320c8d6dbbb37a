import { Body, Controller, Ip } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { RequestHeader } from '../common/http/request-header.decorator';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1AccountRefreshSessionBody, V1AccountRefreshSessionRequest } from './dto/refresh-session.dto';
import { V1AccountDeleteSessionRequestBody, V1AccountDeleteSessionResponseBody, V1AccountGetSessionBody } from './dto/session.dto';
import { RESOURCES_DESCRIPTION } from './mappers/session.mapper';
import { SessionsService } from './sessions.service';

@ApiTags('account')
@Controller('v1')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @WireOperation({
    operationId: 'account.refreshSession',
    summary: 'Swap a refresh token for a new session and refresh token',
    description: [
      'The credential is the `refreshToken` in the body. The old session and refresh tokens stop working. Refresh tokens',
      'rotate within the session: a refresh token that was already swapped, offered again, shows that it was copied, so',
      'the whole session is ended (the pair it was swapped for stops working too: 401 for both). Refresh from one place',
      'at a time (e.g. one browser tab). No token outlives the session’s absolute lifetime (`SESSION_ABSOLUTE_DAYS` from',
      'sign-in): the expiries answered are capped by it, and past it the refresh is a 401 (sign in again).',
    ].join(' '),
    auth: 'refresh-token',
    response: V1AccountRefreshSessionBody,
    errors: [400, 401, 422, 500],
  })
  @ApiHeader({ name: 'User-Agent', required: false, description: 'Stored with the session, to tell sessions apart.' })
  @ApiHeader({
    name: 'X-Forwarded-For',
    required: false,
    description: 'Accepted for compatibility; the client address is that of the connection, or of trusted proxies (`TRUST_PROXY_HOPS`).',
  })
  refreshSession(
    @Body() body: V1AccountRefreshSessionRequest,
    @Ip() ip: string,
    @RequestHeader('user-agent') userAgent?: string,
  ): Promise<V1AccountRefreshSessionBody> {
    return this.sessions.refreshSession(body.refreshToken, { ip, userAgent });
  }

  @WireOperation({
    operationId: 'account.getSession',
    summary: 'The calling session and its account (user session only)',
    description: [
      'The session itself (`sessionData`, its `lastSeen` kept to about a minute) and its account: name, avatar, level,',
      'xp, e-mail, roles. `isNew` is true until the account’s first update has completed.',
      RESOURCES_DESCRIPTION,
    ].join(' '),
    auth: 'session',
    response: V1AccountGetSessionBody,
    errors: [400, 401, 404, 500],
    noBody: true,
  })
  getSession(@CurrentPrincipal() principal: Principal): Promise<V1AccountGetSessionBody> {
    return this.sessions.getSession(principal.accountId, sessionIdOf(principal));
  }

  @WireOperation({
    operationId: 'account.deleteSession',
    summary: 'End one of the calling account’s sessions (user session only)',
    description: [
      'Ends a session of the calling account (`account.getSettings` lists them; the calling one too, as `account.logout`',
      'does): its session and refresh tokens stop working at once, and the event streams it opened, or opened with a',
      'stream ticket it minted, end on every API process before this answers. Another account’s session, an ended or',
      'an unknown one is a 404.',
    ].join(' '),
    auth: 'session',
    response: V1AccountDeleteSessionResponseBody,
    responseDescription: 'The session is ended: an object with nothing but its `$schema`.',
    errors: [400, 401, 404, 422, 500],
  })
  deleteSession(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountDeleteSessionRequestBody,
  ): Promise<V1AccountDeleteSessionResponseBody> {
    return this.sessions.deleteSession(principal.accountId, body.sessionId);
  }
}

/** Session-only operations: the guard let nothing else through. */
function sessionIdOf(principal: Principal): string {
  if (principal.kind !== 'session') throw new Error('a session-only operation was reached without a session');
  return principal.sessionId;
}
