import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorator';
import { Principal } from '../auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { FindOwnersRequestBody, FindOwnersResponseBody } from './dto/find-owners.dto';
import { ItemOwnersService } from './item-owners.service';

@ApiTags('item')
@Controller('v1')
export class ItemsController {
  constructor(private readonly owners: ItemOwnersService) {}

  @WireOperation({
    operationId: 'item.findOwners',
    summary: 'Owners of trading cards or booster packs',
    description:
      'No credential needed. With one, each owner comes with the friend path from the caller (within `maxDepth`). `offset` applies per item.',
    auth: 'optional',
    response: FindOwnersResponseBody,
    errors: [400, 422, 500, 503],
  })
  findOwners(@Body() body: FindOwnersRequestBody, @CurrentPrincipal() caller?: Principal): Promise<FindOwnersResponseBody> {
    return this.owners.find(body, caller);
  }
}
