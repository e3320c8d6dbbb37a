import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { CONNECTIONS_PER_ACCOUNT, UNVERIFIED_DOMAIN_TTL_DAYS, VERIFY_ATTEMPTS_PER_HOUR } from './connection-limits';
import { ConnectionsService } from './connections.service';
import {
  V1AccountCreateConnectionRequestBody,
  V1AccountCreateConnectionResponseBody,
  V1AccountDeleteConnectionRequestBody,
  V1AccountDeleteConnectionResponseBody,
  V1AccountReconnectRequestBody,
  V1AccountReconnectResponseBody,
  V1AccountUpdateConnectionRequestBody,
  V1AccountUpdateConnectionResponseBody,
  V1AccountVerifyConnectionRequestBody,
  V1AccountVerifyConnectionResponseBody,
} from './dto/connections.dto';

const SHOWN = '`account.getInfo` lists verified connections that are not hidden; `account.getSettings` lists them all, with `hide`.';

@ApiTags('account')
@Controller('v1')
export class ConnectionsController {
  constructor(private readonly connections: ConnectionsService) {}

  @WireOperation({
    operationId: 'account.createConnection',
    summary: 'Create OAuth or domain connection (user session only)',
    description:
      '**OAuth** (`discord`, `patreon`, `kick`, `reddit`, `twitch`, `youtube`, `x`): the web app sends the user to the ' +
      'provider’s authorize URL (`response_type=code`, its client id, `redirect_uri` = `OAUTH_REDIRECT_URI`) and posts the ' +
      '`code` it gets back; the service exchanges it at the provider’s token endpoint and reads the user’s id, name and ' +
      'avatar (no provider token is kept). A provider this service has no client for is a 403; a code the provider refuses, ' +
      'a 422. Without a platform key the simulator plays every provider: `<simulator>/oauth/<provider>/authorize`. ' +
      '**Domain**: `code` is the domain name; the answer’s `code` is to be published (TXT `_badge-stats.<domain>` = ' +
      '`badge-stats-verification=<code>`, or the file `https://<domain>/.well-known/badge-stats-verification.txt`), then ' +
      `\`account.verifyConnection\`; unverified, it lapses after ${UNVERIFIED_DOMAIN_TTL_DAYS} days. ` +
      `An account holds at most ${CONNECTIONS_PER_ACCOUNT} connections, one per OAuth provider (409 past it, or for an account ` +
      'of a provider linked to another account here); creates and reconnects count against `CONNECTION_CREATES_PER_HOUR` ' +
      `(429). ${SHOWN}`,
    auth: 'session',
    response: V1AccountCreateConnectionResponseBody,
    errors: [400, 401, 403, 409, 422, 429, 500, 503],
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountCreateConnectionRequestBody,
  ): Promise<V1AccountCreateConnectionResponseBody> {
    return this.connections.create(principal.accountId, body.provider, body.code);
  }

  @WireOperation({
    operationId: 'account.verifyConnection',
    summary: 'Verify a domain connection (user session only)',
    description:
      'Checks the domain’s TXT record, then its HTTPS file, for the code `account.createConnection` answered; proven, the ' +
      'connection is verified. Not proven: 422, each finding in `errors`. Only public addresses are contacted; redirects are ' +
      `not followed. At most ${VERIFY_ATTEMPTS_PER_HOUR} checks per account and hour (429). An OAuth connection is verified ` +
      'already: nothing to do.',
    auth: 'session',
    response: V1AccountVerifyConnectionResponseBody,
    errors: [400, 401, 404, 422, 429, 500],
  })
  async verify(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountVerifyConnectionRequestBody,
  ): Promise<V1AccountVerifyConnectionResponseBody> {
    await this.connections.verify(principal.accountId, body.connectionId);
    return {};
  }

  @WireOperation({
    operationId: 'account.updateConnection',
    summary: 'Hide or show a connection (user session only)',
    description: `A hidden connection is left out of the public profile. ${SHOWN}`,
    auth: 'session',
    response: V1AccountUpdateConnectionResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountUpdateConnectionRequestBody,
  ): Promise<V1AccountUpdateConnectionResponseBody> {
    await this.connections.update(principal.accountId, body.connectionId, body.hidden);
    return {};
  }

  @WireOperation({
    operationId: 'account.reconnectConnection',
    summary: 'Reconnect OAuth connection (user session only)',
    description:
      'A new `code` from the same provider (the same flow as creating): the provider’s name and avatar of the user are read ' +
      'again and a failure is cleared. The code must sign in the same account of the provider (else 422). Counts against ' +
      '`CONNECTION_CREATES_PER_HOUR`.',
    auth: 'session',
    response: V1AccountReconnectResponseBody,
    errors: [400, 401, 403, 404, 422, 429, 500, 503],
  })
  async reconnect(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountReconnectRequestBody,
  ): Promise<V1AccountReconnectResponseBody> {
    await this.connections.reconnect(principal.accountId, body.connectionId, body.code);
    return {};
  }

  @WireOperation({
    operationId: 'account.deleteConnection',
    summary: 'Delete OAuth or domain connection (user session only)',
    description: 'The connection is removed from the profile and the settings at once.',
    auth: 'session',
    response: V1AccountDeleteConnectionResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountDeleteConnectionRequestBody,
  ): Promise<V1AccountDeleteConnectionResponseBody> {
    await this.connections.delete(principal.accountId, body.connectionId);
    return {};
  }
}
