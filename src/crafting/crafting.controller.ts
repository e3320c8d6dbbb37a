import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { CraftingPlanService } from './crafting-plan.service';
import { PLAN_PAGE_MAX, V1AccountGetCraftingPlanRequestBody, V1AccountGetCraftingPlanResponseBody } from './dto/crafting-plan.dto';

@ApiTags('account')
@Controller('v1')
export class CraftingController {
  constructor(private readonly plans: CraftingPlanService) {}

  @WireOperation({
    operationId: 'account.getCraftingPlan',
    summary: 'What levelling each badge of an account costs, card by card (extension)',
    description:
      'An extension of this service, not in the wire reference. For each badge the account can level (the normal and foil ' +
      'badges of the apps of its library, of the cards its inventory holds and of its game badges, below the highest level: 5 ' +
      'normal, 1 foil): its level, every card of the set held (copies) or missing, the levels the cards held make now, and what ' +
      'the missing cards cost, each at its own lowest market listing (not the set’s average): `cost` for the next level, ' +
      '`costToMaxLevel` up to the highest, `costPerXp` per xp of the next level. A cost is null when a card to buy has no ' +
      'listing. `totals` sum the whole plan whatever the filters; `pricesUpdatedAt` says how old the quotes are. An app whose ' +
      `card set the service has not read yet is counted in \`totals.unknownSets\`, not planned. Pages of \`limit\` (at most ${PLAN_PAGE_MAX}). ` +
      'A private profile or inventory is a 403; an account never refreshed, a 409.',
    auth: 'any',
    response: V1AccountGetCraftingPlanResponseBody,
    errors: [400, 401, 403, 404, 409, 422, 500],
  })
  getCraftingPlan(@Body() body: V1AccountGetCraftingPlanRequestBody): Promise<V1AccountGetCraftingPlanResponseBody> {
    return this.plans.plan(body);
  }
}
