import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DeveloperApp } from '../account-settings/dto/account-settings.dto';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { DeveloperAppsService } from './developer-apps.service';
import {
  V1AccountCreateDeveloperAppBody,
  V1AccountCreateDeveloperAppRequest,
  V1AccountDeleteDeveloperAppRequest,
  V1AccountUpdateDeveloperAppRequest,
} from './dto/developer-apps.dto';

const LIMITS =
  'Creates, updates and deletes count against `DEVELOPER_APP_CHANGES_PER_HOUR` per account (429 past it). ' +
  'Sign in with `account.login`, or mint a session with `npm run cli -- session create --account 1`.';

@ApiTags('account')
@Controller('v1')
export class DeveloperAppsController {
  constructor(private readonly apps: DeveloperAppsService) {}

  @WireOperation({
    operationId: 'account.createDeveloperApp',
    summary: 'Create a developer app and its API key (extension; user session only)',
    description:
      'An extension of this service. The answer holds the API key, shown this once (only its hash is stored); ' +
      '`account.getSettings` lists the app, masked, with its analytics. An account may hold `DEVELOPER_APPS_PER_ACCOUNT` ' +
      'live apps: one more is a 409 (the request is sound but conflicts with the account’s state; delete an app first). ' +
      LIMITS,
    auth: 'session',
    response: V1AccountCreateDeveloperAppBody,
    responseDescription: 'The app, and its API key (shown once).',
    errors: [400, 401, 409, 422, 500],
  })
  create(
    @Body() body: V1AccountCreateDeveloperAppRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<V1AccountCreateDeveloperAppBody> {
    return this.apps.create(principal.accountId, body);
  }

  @WireOperation({
    operationId: 'account.updateDeveloperApp',
    summary: 'Rename, re-describe or move a developer app (extension; user session only)',
    description: `An extension of this service. Fields left out keep their value; the key does not change. ${LIMITS}`,
    auth: 'session',
    response: DeveloperApp,
    responseDescription: 'The app as it now is.',
    errors: [400, 401, 404, 422, 500],
  })
  update(@Body() body: V1AccountUpdateDeveloperAppRequest, @CurrentPrincipal() principal: Principal): Promise<DeveloperApp> {
    return this.apps.update(principal.accountId, body);
  }

  @WireOperation({
    operationId: 'account.deleteDeveloperApp',
    summary: 'Delete a developer app: its API key stops working at once (extension; user session only)',
    description:
      'An extension of this service. The key is revoked before the answer: from then on every API process refuses it ' +
      `(401), including requests already holding it in their cache. ${LIMITS}`,
    auth: 'session',
    responseDescription: 'Deleted; no body.',
    errors: [400, 401, 404, 422, 500],
  })
  async delete(@Body() body: V1AccountDeleteDeveloperAppRequest, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.apps.delete(principal.accountId, body.keyId);
  }
}
