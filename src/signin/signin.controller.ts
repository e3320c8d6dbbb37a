import { Body, Controller, Ip, Req } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { clientAddress } from '../auth/rate-limit/client-address';
import { RequestHeader } from '../common/http/request-header.decorator';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1AccountLoginBody, V1AccountLoginRequest } from './dto/login.dto';
import { SignInService } from './signin.service';

@ApiTags('account')
@Controller('v1')
export class SignInController {
  constructor(private readonly signIn: SignInService) {}

  @WireOperation({
    operationId: 'account.login',
    summary: 'Sign in with the platform (OpenID 2.0): a verified assertion becomes a session (extension)',
    description: [
      'An extension of this service. The web app sends the browser to the platform’s OpenID endpoint',
      '(`<PLATFORM_COMMUNITY_URL>/openid/login?openid.ns=http://specs.openid.net/auth/2.0&openid.mode=checkid_setup',
      '&openid.return_to=<web app URL>&openid.realm=<web app origin>&openid.identity=…identifier_select&openid.claimed_id=…identifier_select`);',
      'the platform sends it back to `return_to` with signed `openid.*` parameters, and the web app posts them here with',
      '`.` replaced by `_` (`openid.claimed_id` → `openid_claimed_id`). The service checks that `openid_return_to` is on',
      'the web app’s origin (`WEB_APP_ORIGIN`), that the nonce is fresh (5 minutes) and unused, asks the platform to',
      'confirm the signature (`check_authentication`), and reads the account from `openid_claimed_id`. A forged,',
      'replayed, stale or foreign-origin assertion is a 401. A new account is created and its first refresh queued.',
      'Attempts are limited per client address (`LOGIN_RATE_LIMIT_PER_MINUTE`, 429). The example below cannot succeed',
      'as is (its signature is made up): with the simulator, get a real assertion with',
      '`curl -si "http://127.0.0.1:3100/openid/login?openid.mode=checkid_setup&openid.return_to=http://localhost:3000/&account=1"`',
      'and post the parameters of its `Location`.',
    ].join(' '),
    auth: 'sign-in',
    response: V1AccountLoginBody,
    responseDescription: 'The new session (token and expiry) and its refresh token.',
    errors: [400, 401, 422, 500],
  })
  @ApiHeader({ name: 'User-Agent', required: false, description: 'Stored with the session, to tell sessions apart.' })
  login(
    @Body() body: V1AccountLoginRequest,
    @Ip() ip: string,
    @Req() request: Request,
    @RequestHeader('user-agent') userAgent?: string,
  ): Promise<V1AccountLoginBody> {
    return this.signIn.login(body, { ip, userAgent, address: clientAddress(request) });
  }

  @WireOperation({
    operationId: 'account.logout',
    summary: 'End the calling session (extension)',
    description:
      'An extension of this service. The session token and its refresh token stop working at once (the next request with them is a 401).',
    auth: 'session',
    responseDescription: 'Signed out; no body.',
    errors: [400, 401, 500],
    noBody: true,
  })
  async logout(@CurrentPrincipal() principal: Principal): Promise<void> {
    if (principal.kind === 'session') await this.signIn.logout(principal.sessionId);
  }
}
