import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorator';
import { Principal } from '../auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { BadgeCraftersService } from './badge-crafters.service';
import { BadgeListCraftersRequestBody, BadgeListCraftersResponseBody } from './dto/list-crafters.dto';

@ApiTags('badge')
@Controller('v1')
export class BadgesController {
  constructor(private readonly crafters: BadgeCraftersService) {}

  @WireOperation({
    operationId: 'badge.listCrafters',
    summary: 'Accounts that crafted a badge, earliest completion first',
    description:
      'Cursor paging. The page size is a donor perk: 25, 100 for donators, 500 for staff (`maxPageSize`); a larger `limit` is clamped.',
    auth: 'any',
    response: BadgeListCraftersResponseBody,
    errors: [400, 401, 403, 404, 422, 500, 503],
  })
  listCrafters(
    @Body() body: BadgeListCraftersRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BadgeListCraftersResponseBody> {
    return this.crafters.list(body, principal.accountId);
  }
}
