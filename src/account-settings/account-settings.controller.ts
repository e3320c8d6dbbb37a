import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AccountSettingsService } from './account-settings.service';
import { V1AccountGetSettingsBody } from './dto/account-settings.dto';

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
}
