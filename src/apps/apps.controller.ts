import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorator';
import { Principal } from '../auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AppBadgesService } from './app-badges.service';
import { V1AppListBadgesRequest, V1AppListBadgesResponseBody } from './dto/app-badges.dto';

@ApiTags('app')
@Controller('v1')
export class AppsController {
  constructor(private readonly appBadges: AppBadgesService) {}

  @WireOperation({
    operationId: 'app.listBadges',
    summary: 'Badges of an app',
    description: '`accountInfo` is set on the badges the calling account holds.',
    auth: 'any',
    response: V1AppListBadgesResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  listBadges(@Body() body: V1AppListBadgesRequest, @CurrentPrincipal() principal: Principal): Promise<V1AppListBadgesResponseBody> {
    return this.appBadges.listBadges(body.appId, principal.accountId);
  }
}
