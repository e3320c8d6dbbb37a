import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountSearch } from '../account-records/dto/account-search.dto';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import {
  V1AccountListOwnedGroupsResponseBody,
  V1LeaderboardGetGroupLeaderboardRequestBody,
  V1LeaderboardGetGroupLeaderboardResponseBody,
} from './dto/groups.dto';
import { DEFAULT_GROUP_WINDOW, GroupLeaderboardService, MAX_GROUP_WINDOW } from './group-leaderboard.service';
import { MAX_OWNED_GROUPS, OwnedGroupsService } from './owned-groups.service';

/** `account.listOwnedGroups` (tagged with the other account operations). */
@ApiTags('account')
@Controller('v1')
export class OwnedGroupsController {
  constructor(private readonly owned: OwnedGroupsService) {}

  @WireOperation({
    operationId: 'account.listOwnedGroups',
    summary: 'Groups owned by an account',
    description: `The groups whose members list names the account first (the platform lists a group's owner first), largest first, at most ${MAX_OWNED_GROUPS}. Groups are read by the update worker once per refresh interval, whoever's update saw them, so a group shows here once an update of one of its members has been followed by its group refresh. A private profile hides its groups → 403; hidden groups are never listed.`,
    auth: 'any',
    response: V1AccountListOwnedGroupsResponseBody,
    errors: [400, 401, 403, 404, 422, 500],
  })
  listOwnedGroups(@Body() body: AccountSearch): Promise<V1AccountListOwnedGroupsResponseBody> {
    return this.owned.list(body);
  }
}

/** `leaderboard.getGroupLeaderboard` (tagged with the other leaderboards). */
@ApiTags('leaderboard')
@Controller('v1')
export class GroupLeaderboardController {
  constructor(private readonly board: GroupLeaderboardService) {}

  @WireOperation({
    operationId: 'leaderboard.getGroupLeaderboard',
    summary: 'Group leaderboard',
    description: `\`most_members\`: every group a tracked account is in and whose members list is readable, by its member count on the platform (ties go to the lower group id). Ranks are 1-based; \`start\` and \`end\` are inclusive (default 1–${DEFAULT_GROUP_WINDOW}) and a window holds at most ${MAX_GROUP_WINDOW} ranks (403 beyond). \`goToLeaderboardRank\` centres a window of the same width on that rank. \`steamSetsGroup\` is the service's own group, always present (rank 0 while it is not on the board). Hidden groups are not ranked.`,
    auth: 'any',
    response: V1LeaderboardGetGroupLeaderboardResponseBody,
    errors: [400, 401, 403, 404, 422, 500],
  })
  getGroupLeaderboard(@Body() body: V1LeaderboardGetGroupLeaderboardRequestBody): Promise<V1LeaderboardGetGroupLeaderboardResponseBody> {
    return this.board.get(body);
  }
}
