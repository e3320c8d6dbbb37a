import { Body, Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { SharedAnswers } from '../common/shared-answers/shared-answers';
import { sendRenderedJson } from '../common/wire/rendered-json';
import { AccountAppsService } from './account-apps.service';
import { AccountBadgesService } from './account-badges.service';
import { CompareBadgesService } from './compare-badges.service';
import {
  COMPARE_PAGE_SIZE,
  MAX_COMPARED_ACCOUNTS,
  V1AccountCompareBadgesRequestBody,
  V1AccountCompareBadgesResponseBody,
} from './dto/compare-badges.dto';
import { AccountFriendsService } from './account-friends.service';
import { DataPointsService } from './data-points.service';
import { V1AccountFindFriendPathRequestBody, V1AccountFindFriendPathResponseBody } from './dto/friend-path.dto';
import { FriendPathService, MAX_FRIENDSHIPS_READ, MAX_PATH_DEPTH } from './friend-path.service';
import { AccountGetTrendingRequestBody, AccountGetTrendingResponseBody, AccountViewStats } from './dto/views.dto';
import { ProfileVisitor } from './views/profile-visitor.decorator';
import { ViewsReaderService } from './views/views-reader.service';
import { V1AccountGetDataPointsResponseBody } from './dto/data-points.dto';
import { APPS_PAGE_SIZE, V1AccountListAppsRequest, V1AccountListAppsResponseBody } from './dto/list-apps.dto';
import { V1AccountListFriendsResponseBody } from './dto/list-friends.dto';
import { AccountProfileService } from './account-profile.service';
import { BADGES_PAGE_SIZE, V1AccountListBadgesRequest, V1AccountListBadgesResponseBody } from './dto/list-badges.dto';
import { AccountSearch } from '../account-records/dto/account-search.dto';
import { V1AccountGetInfoResponseBody } from './dto/account-profile.dto';
import { V1AccountBadgeStats } from './dto/badge-stats.dto';
import { V1AccountUpdateProgressResponseBody } from './dto/update-progress.dto';
import { V1AccountListLeaderboardHistoryResponseBody } from './dto/leaderboard-history.dto';
import { HISTORY_DAYS, LeaderboardHistoryService } from './leaderboard-history.service';

/** Who searched, for trending searches: the credential (one API key counts as one searcher). */
function searcherOf(principal: Principal): string {
  return principal.kind === 'api-key' ? principal.keyId : principal.sessionId;
}

@ApiTags('account')
@Controller('v1')
export class AccountsController {
  constructor(
    private readonly profiles: AccountProfileService,
    private readonly badges: AccountBadgesService,
    private readonly comparisons: CompareBadgesService,
    private readonly apps: AccountAppsService,
    private readonly friends: AccountFriendsService,
    private readonly dataPoints: DataPointsService,
    private readonly friendPaths: FriendPathService,
    private readonly viewsReader: ViewsReaderService,
    private readonly rankHistory: LeaderboardHistoryService,
    private readonly shared: SharedAnswers,
  ) {}

  @WireOperation({
    operationId: 'account.getInfo',
    summary: 'Profile information of an account',
    description:
      'The stored profile: counters, ranks, location and the state of its updates (`lastQueueStatus`, `nextAllowedTime`). ' +
      'An account added but not refreshed yet answers with empty counters and `lastQueueStatus` `pending` or `undefined`; ' +
      'queue an update with `account.queueUpdate`. Each call counts as a profile view (see `account.getViewStats`).',
    auth: 'any',
    response: V1AccountGetInfoResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  @ApiHeader({
    name: 'X-Visitor-Id',
    required: false,
    description: 'Accepted, not trusted: a viewer is the credential’s account with the client address, whatever this says.',
  })
  @ApiHeader({
    name: 'X-Forwarded-For',
    required: false,
    description: 'The client address, read only through the proxies the service trusts (`TRUST_PROXY_HOPS`; 0: ignored).',
  })
  @ApiHeader({ name: 'User-Agent', required: false, description: 'Accepted; it does not tell viewers apart.' })
  async getInfo(@Body() body: AccountSearch, @ProfileVisitor() visitor: string, @Res() res: Response): Promise<void> {
    // Written as text by the service (mappers/profile-text.ts), sent with the headers res.json would give it.
    sendRenderedJson(res, await this.profiles.getInfo(body, visitor));
  }

  @WireOperation({
    operationId: 'account.getViewStats',
    summary: 'Profile view counts of an account',
    description:
      'Views are counted by `account.getInfo` (and `analytics.trackEvent`); a viewer is the credential’s account with the ' +
      'client address (from trusted proxies only) and counts once per profile per hour (24 h) or day (7 d, 30 d).',
    auth: 'any',
    response: AccountViewStats,
    errors: [400, 401, 404, 422, 500],
  })
  getViewStats(@Body() body: AccountSearch): Promise<AccountViewStats> {
    return this.viewsReader.stats(body);
  }

  @WireOperation({
    operationId: 'account.getTrending',
    summary: 'Top accounts by distinct viewers in a window',
    description:
      'Ranked by distinct viewers per hour (24h) or per day (7d, 30d), summed; `uniqueViews` is the exact count over the whole window. No credential needed.',
    auth: 'optional',
    response: AccountGetTrendingResponseBody,
    errors: [400, 422, 500],
  })
  async getTrending(@Body() body: AccountGetTrendingRequestBody, @Res() res: Response): Promise<void> {
    const operation = { operationId: 'account.getTrending', schema: AccountGetTrendingResponseBody.name };
    await this.shared.send(res, operation, body, () => this.viewsReader.trending(body));
  }

  @WireOperation({
    operationId: 'account.getBadgeStats',
    summary: 'Badge statistics of an account',
    description:
      '`levels` counts badges per level (key: the level). `scarcities` counts badges per power-of-ten bucket of their platform scarcity (key: the bucket’s lower bound, e.g. `"1000"` for 1,000–9,999 holders).',
    auth: 'any',
    response: V1AccountBadgeStats,
    errors: [400, 401, 404, 422, 500],
  })
  getBadgeStats(@Body() body: AccountSearch): Promise<V1AccountBadgeStats> {
    return this.profiles.getBadgeStats(body);
  }

  @WireOperation({
    operationId: 'account.listBadges',
    summary: 'Badges of an account',
    description: `Pages of ${BADGES_PAGE_SIZE}. \`search\` matches the badge or app name. \`filter\` and \`valueFilter\` are deprecated forms of \`filters\` (a value filter matches one exact level or scarcity).`,
    auth: 'any',
    response: V1AccountListBadgesResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  listBadges(@Body() body: V1AccountListBadgesRequest, @CurrentPrincipal() principal: Principal): Promise<V1AccountListBadgesResponseBody> {
    return this.badges.list(body, searcherOf(principal));
  }

  @WireOperation({
    operationId: 'account.compareBadges',
    summary: 'Compare badge collections between accounts',
    description: `Up to ${MAX_COMPARED_ACCOUNTS} tracked accounts (more → 422; an unknown one → 404 naming it). A tuple is a badge (an app's normal or foil badge, or a special badge) held by at least one of them; \`mode\` and \`match\` say which tuples, \`difference\` narrows them to what one compared account has and another lacks. Pages of ${COMPARE_PAGE_SIZE}.`,
    auth: 'any',
    response: V1AccountCompareBadgesResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  compareBadges(@Body() body: V1AccountCompareBadgesRequestBody): Promise<V1AccountCompareBadgesResponseBody> {
    return this.comparisons.compare(body);
  }

  @WireOperation({
    operationId: 'account.listApps',
    summary: 'Owned apps of an account',
    description: `Pages of ${APPS_PAGE_SIZE}; playtime in minutes, highest first unless \`order\` says otherwise.`,
    auth: 'any',
    response: V1AccountListAppsResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  listApps(@Body() body: V1AccountListAppsRequest, @CurrentPrincipal() principal: Principal): Promise<V1AccountListAppsResponseBody> {
    return this.apps.list(body, searcherOf(principal));
  }

  @WireOperation({
    operationId: 'account.listFriends',
    summary: 'Friends of an account',
    description:
      'The friends this service tracks (queue an update of a friend to add it), most recent friendship first. A private friend list → 403.',
    auth: 'any',
    response: V1AccountListFriendsResponseBody,
    errors: [400, 401, 403, 404, 422, 500],
  })
  listFriends(@Body() body: AccountSearch): Promise<V1AccountListFriendsResponseBody> {
    return this.friends.list(body);
  }

  @WireOperation({
    operationId: 'account.listLeaderboardHistory',
    summary: 'Daily rank history of an account',
    description: `One point per column board (but valid_playtime) for each day the account was refreshed in the last ${HISTORY_DAYS} days: its global rank and score right after that day's last refresh, oldest first.`,
    auth: 'any',
    response: V1AccountListLeaderboardHistoryResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  listLeaderboardHistory(@Body() body: AccountSearch): Promise<V1AccountListLeaderboardHistoryResponseBody> {
    return this.rankHistory.list(body);
  }

  @WireOperation({
    operationId: 'account.getDataPoints',
    summary: 'Data points of an account for charts',
    description:
      'The series of the profile charts, from the stored badges and apps: the 10 badges that gave the most xp, the 10 ' +
      'rarest, the 20 most played apps, and badge xp per UTC month. Empty until the account is refreshed.',
    auth: 'any',
    response: V1AccountGetDataPointsResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  getDataPoints(@Body() body: AccountSearch): Promise<V1AccountGetDataPointsResponseBody> {
    return this.dataPoints.get(body);
  }

  @WireOperation({
    operationId: 'account.findFriendPath',
    summary: 'Shortest friend paths between two accounts',
    description:
      `Up to \`maxPaths\` (default 10, at most 50) paths of the shortest length, at most ${MAX_PATH_DEPTH} hops, through the friend lists ` +
      "the service has read: a friendship counts when either account's list names the other, so an account whose list is private is " +
      "reached through its friends' lists. A direct friendship yields exactly one path. `found` is false when no path of at most " +
      `${MAX_PATH_DEPTH} hops exists, or when the search has read ${MAX_FRIENDSHIPS_READ.toLocaleString('en-US')} friendships without ` +
      'finding one (the bound on the work of one request).',
    auth: 'any',
    response: V1AccountFindFriendPathResponseBody,
    errors: [400, 401, 404, 422, 500, 503],
  })
  findFriendPath(@Body() body: V1AccountFindFriendPathRequestBody): Promise<V1AccountFindFriendPathResponseBody> {
    return this.friendPaths.find(body);
  }

  @WireOperation({
    operationId: 'account.getBadgeHeatmap',
    summary: 'Monthly badge crafting counts of an account',
    description: 'A bare map: calendar month (UTC) `YYYY-MM` → badges completed in it.',
    auth: 'any',
    bareResponse: { type: 'object', additionalProperties: { type: 'integer' }, example: { '2024-01': 3 } },
    errors: [400, 401, 404, 422, 500],
  })
  getBadgeHeatmap(@Body() body: AccountSearch): Promise<Record<string, number>> {
    return this.badges.heatmap(body);
  }

  @WireOperation({
    operationId: 'account.updateProgress',
    summary: 'Live progress of an account’s most recent update',
    description:
      'Steps in run order: profile, bans, badges, games, friends, groups, inventory, save. `progress` is absent when the account was never queued.',
    auth: 'any',
    response: V1AccountUpdateProgressResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  updateProgress(@Body() body: AccountSearch): Promise<V1AccountUpdateProgressResponseBody> {
    return this.profiles.updateProgress(body);
  }
}
