import { Body, Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { SharedAnswers } from '../common/shared-answers/shared-answers';
import { FindOwnersRequestBody, FindOwnersResponseBody } from './dto/find-owners.dto';
import { ItemOwnersService } from './item-owners.service';

@ApiTags('item')
@Controller('v1')
export class ItemsController {
  constructor(
    private readonly owners: ItemOwnersService,
    private readonly shared: SharedAnswers,
  ) {}

  @WireOperation({
    operationId: 'item.findOwners',
    summary: 'Owners of trading cards or booster packs',
    description:
      'No credential needed. With one, each owner comes with the friend path from the caller (within `maxDepth`). `offset` applies per item.',
    auth: 'optional',
    response: FindOwnersResponseBody,
    errors: [400, 422, 500, 503],
  })
  async findOwners(@Body() body: FindOwnersRequestBody, @Res() res: Response, @CurrentPrincipal() caller?: Principal): Promise<void> {
    // With a credential, each owner's friend path starts at the caller: the caller is part of the question.
    const operation = { operationId: 'item.findOwners', schema: FindOwnersResponseBody.name };
    await this.shared.send(res, operation, [body, caller?.accountId ?? null], () => this.owners.find(body, caller));
  }
}
