import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { Principal } from '../../common/auth/principal';
import { WireOperation } from '../../common/wire/wire-operation.decorator';
import { DROPS_GAMES_PER_REQUEST, V1AccountGetDropsWorthRequestBody, V1AccountGetDropsWorthResponseBody } from './drops-worth.dto';
import { DropsWorthService } from './drops-worth.service';

@ApiTags('account')
@Controller('v1')
export class DropsWorthController {
  constructor(private readonly drops: DropsWorthService) {}

  @WireOperation({
    operationId: 'account.getDropsWorth',
    summary: 'The card drops an account’s games have left and what they are worth (extension)',
    description:
      'An extension of this service, not in the wire reference. For the account’s games with trading cards and the most ' +
      `playtime (at most ${DROPS_GAMES_PER_REQUEST}; \`totals.gamesWithCards\` says how many there are): the card drops left, as ` +
      'the platform’s badge page of the game says, and their expected worth: drops × the mean lowest listing of the set’s ' +
      'normal cards (a drop is a uniformly random normal card). Badge pages are read on demand, kept 6 hours, and charged ' +
      'to the caller’s account’s share of the platform budget (429/503 with Retry-After once spent); pages the platform ' +
      'could not serve in time are `pendingGames`: ask again. `pricesUpdatedAt` and `dropsReadAt` say how old the figures ' +
      'are. A private profile is a 403; an account never refreshed, a 409.',
    auth: 'any',
    response: V1AccountGetDropsWorthResponseBody,
    errors: [400, 401, 403, 404, 409, 422, 429, 500, 503],
  })
  getDropsWorth(
    @Body() body: V1AccountGetDropsWorthRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<V1AccountGetDropsWorthResponseBody> {
    return this.drops.worth(body, principal);
  }
}
