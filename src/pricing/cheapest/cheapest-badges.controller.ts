import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WireOperation } from '../../common/wire/wire-operation.decorator';
import { BadgeListCheapestRequestBody, BadgeListCheapestResponseBody, CHEAPEST_MAX_LIMIT } from '../dto/list-cheapest.dto';
import { CheapestBadgesService } from './cheapest-badges.service';

@ApiTags('badge')
@Controller('v1')
export class CheapestBadgesController {
  constructor(private readonly cheapest: CheapestBadgesService) {}

  @WireOperation({
    operationId: 'badge.listCheapest',
    summary: 'Badges cheapest to craft, by set cost or cost per xp (extension)',
    description:
      'An extension of this service, not in the wire reference. The catalogue’s game badges, normal and foil, by what one ' +
      'full set of their trading cards costs now: the sum of each card’s own lowest sell listing (USD cents), as the ' +
      'pricing job last read the market, and the cost per xp (every level gives 100 xp). A set with a card that nobody ' +
      'lists now cannot be bought whole and is left out until it is listed again. `pricesAsOf` is when the oldest of the ' +
      `set’s card quotes was read. Filters: \`badgeType\`, \`appId\`, a set cost range. Cursor paging, at most ${CHEAPEST_MAX_LIMIT} a page.`,
    auth: 'any',
    response: BadgeListCheapestResponseBody,
    errors: [400, 401, 422, 500],
  })
  listCheapest(@Body() body: BadgeListCheapestRequestBody): Promise<BadgeListCheapestResponseBody> {
    return this.cheapest.list(body);
  }
}
