import { Body, Controller, Ip } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { RequestHeader } from '../common/http/request-header.decorator';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AccountSettingsService } from './account-settings.service';
import { V1AccountGetSettingsBody } from './dto/account-settings.dto';
import { V1AccountRefreshSessionBody, V1AccountRefreshSessionRequest } from './dto/refresh-session.dto';

@ApiTags('account')
@Controller('v1')
export class AccountSettingsController {
  constructor(private readonly settings: AccountSettingsService) {}

  @WireOperation({
    operationId: 'account.getSettings',
    summary: 'Settings of the calling account (user session only)',
    description:
      'The account of the session: its e-mail and subscription, privacy, vanity, images and developer apps. ' +
      'Not for integrations: API keys are refused. Mint a session with `npm run cli -- session create --account 1`.',
    auth: 'session',
    response: V1AccountGetSettingsBody,
    errors: [400, 401, 404, 500],
    noBody: true,
  })
  getSettings(@CurrentPrincipal() principal: Principal): Promise<V1AccountGetSettingsBody> {
    return this.settings.getSettings(principal.accountId);
  }

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
    return this.settings.refreshSession(body.refreshToken, { ip, userAgent });
  }
}
