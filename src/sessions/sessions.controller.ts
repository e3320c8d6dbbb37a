import { Body, Controller, Ip } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { RequestHeader } from '../common/http/request-header.decorator';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1AccountRefreshSessionBody, V1AccountRefreshSessionRequest } from './dto/refresh-session.dto';
import { SessionsService } from './sessions.service';

@ApiTags('account')
@Controller('v1')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @WireOperation({
    operationId: 'account.refreshSession',
    summary: 'Swap a refresh token for a new session and refresh token',
    description: 'The credential is the `refreshToken` in the body. The old session and refresh tokens stop working.',
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
}
