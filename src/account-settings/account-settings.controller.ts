import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AccountSettingsService } from './account-settings.service';
import { V1AccountGetSettingsBody } from './dto/account-settings.dto';
import {
  V1AccountUpdateRoleRequestBody,
  V1AccountUpdateSettingsRequestBody,
  V1AccountUpdateVanityRequestBody,
} from './dto/update-settings.dto';
import { SettingsUpdater } from './settings-updater.service';

const LIMITS =
  'Counts against `SETTINGS_CHANGES_PER_HOUR` per account with `account.updateSettings` and `account.updateVanity` ' +
  '(429 with Retry-After past it). Nothing is written unless the whole request is valid. Not for integrations: API keys are refused.';

@ApiTags('account')
@Controller('v1')
export class AccountSettingsController {
  constructor(
    private readonly settings: AccountSettingsService,
    private readonly updater: SettingsUpdater,
  ) {}

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
    operationId: 'account.updateSettings',
    summary: 'Update account settings (user session only)',
    description:
      'Sets `hidden`, `language` and the site `vanity` (as `account.updateVanity`), and, when sent, `email` and ' +
      '`countryOverride`. Hidden accounts keep their rank on every board (so nobody’s rank reveals who hides) but are ' +
      'shown nowhere: a board window gives their rows as null with their ranks in `hiddenRanks`, crafter and owner ' +
      'pages give their places as null, and previews, changes, bucket leaders and trending leave them out; the account ' +
      'still sees itself. A country override puts the account on that country’s and its region’s boards (the ' +
      'platform’s state and city no longer apply) and keeps it there through refreshes; `null` puts the platform’s ' +
      'location back. Every change shows within seconds, on every API process. ' +
      LIMITS,
    auth: 'session',
    responseDescription: 'Saved; no body.',
    errors: [400, 401, 404, 409, 422, 429, 500],
  })
  async updateSettings(@Body() body: V1AccountUpdateSettingsRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.updater.updateSettings(principal.accountId, body);
  }

  @WireOperation({
    operationId: 'account.updateVanity',
    summary: 'Set or remove the account’s vanity (user session only)',
    description:
      'The site vanity: `account.getInfo` with `{vanity: {value, type: "internal"}}` finds the account by it at once, ' +
      'and no longer by the one it replaced. Vanities are compared without regard to case and stored lower-case; one ' +
      'another account holds is a 409. ' +
      LIMITS,
    auth: 'session',
    responseDescription: 'Saved; no body.',
    errors: [400, 401, 404, 409, 422, 429, 500],
  })
  async updateVanity(@Body() body: V1AccountUpdateVanityRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.updater.updateVanity(principal.accountId, body.vanity);
  }

  @WireOperation({
    operationId: 'account.updateRole',
    summary: 'Choose the role the account shows (user session only)',
    description:
      'Sets `chosenRole` (`account.getSettings`) to one of the donation roles the account holds (422 for one it does not hold); ' +
      'without `role`, the default again (its highest-rated role). ' +
      LIMITS,
    auth: 'session',
    responseDescription: 'Saved; no body.',
    errors: [400, 401, 422, 429, 500],
  })
  async updateRole(@Body() body: V1AccountUpdateRoleRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.updater.updateChosenRole(principal.accountId, body.role ?? null);
  }
}
