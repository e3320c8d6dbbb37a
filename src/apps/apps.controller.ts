import { TIER_PAGE_SIZES } from '../account-records/donor-tiers';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AppBadgesService } from './app-badges.service';
import { AppOwnersService } from './app-owners.service';
import { AppListOwnersRequestBody, AppListOwnersResponseBody } from './dto/list-owners.dto';
import { V1AppListBadgesRequest, V1AppListBadgesResponseBody } from './dto/app-badges.dto';

@ApiTags('app')
@Controller('v1')
export class AppsController {
  constructor(
    private readonly appBadges: AppBadgesService,
    private readonly appOwners: AppOwnersService,
  ) {}

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

  @WireOperation({
    operationId: 'app.listOwners',
    summary: 'Accounts that own an app, highest playtime first',
    description: `Cursor paging; \`playtime\` is minutes on this app. The page size (\`maxPageSize\`) is a donor perk, by the caller's donor tier: ${TIER_PAGE_SIZES}; a larger \`limit\` is clamped.`,
    auth: 'any',
    response: AppListOwnersResponseBody,
    errors: [400, 401, 403, 422, 500, 503],
  })
  listOwners(@Body() body: AppListOwnersRequestBody, @CurrentPrincipal() principal: Principal): Promise<AppListOwnersResponseBody> {
    return this.appOwners.list(body, principal.accountId);
  }
}
